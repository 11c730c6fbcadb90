// The live lobby's socket (/ws/lobby): the table list, the lobby's chat and "My games", pushed as they
// change. It reconnects after a drop (after 0.5 s, doubling up to 10 s) and says where it stands (the
// lobby sequence it has; the page adds its newest chat line and filters), so the server sends only what
// it missed, or the whole list once. While the socket is down, the page's `poll` runs every 15 s.

import { t } from "./common.js";

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10000;
const FALLBACK_POLL_MS = 15000;

export class LobbyChannel {
  /** `topics`: what to receive ("tables", "chat", "my"); `query()`: more of the address (filters,
   * chat_after) at each connection; `onMessage(message)`; `poll()`: what to fetch while disconnected. */
  constructor({ topics, query = () => ({}), onMessage, poll = null }) {
    this.topics = topics;
    this.query = query;
    this.onMessage = onMessage;
    this.poll = poll;
    this.epoch = null;
    this.seq = null;
    this.socket = null;
    this.retryDelay = FIRST_RETRY_MS;
    this.retryTimer = null;
    this.pollTimer = null;
    this.state = "connecting";
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const params = new URLSearchParams({ topics: this.topics.join(",") });
    for (const [name, value] of Object.entries(this.query())) {
      if (value !== null && value !== undefined && value !== "" && value !== false) params.set(name, String(value));
    }
    if (this.epoch !== null && this.seq !== null) {
      params.set("epoch", this.epoch);
      params.set("since", String(this.seq));
    }
    const socket = new WebSocket(`${scheme}://${window.location.host}/ws/lobby?${params}`);
    this.socket = socket;
    this.show("connecting");
    socket.onopen = () => {
      this.retryDelay = FIRST_RETRY_MS;
      this.show("online");
      clearInterval(this.pollTimer);
      this.pollTimer = null;
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "tables" || message.type === "resumed") {
        this.epoch = message.epoch;
        this.seq = message.seq;
      } else if (message.seq !== undefined) {
        this.seq = Math.max(this.seq ?? 0, message.seq);
      }
      this.onMessage(message);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.show("offline");
      if (this.poll && this.pollTimer === null) {
        this.poll();
        this.pollTimer = setInterval(() => this.poll(), FALLBACK_POLL_MS);
      }
      this.retryTimer = setTimeout(() => this.connect(), this.retryDelay);
      this.retryDelay = Math.min(this.retryDelay * 2, MAX_RETRY_MS);
    };
  }

  /** Send `message` if connected; whether it was sent. */
  send(message) {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Reconnect at once if the socket is down (the tab became visible again). */
  wake() {
    if (this.socket === null && this.retryTimer !== null) this.connect();
  }

  get isOpen() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Show the connection's state in the header (`#connection`), in the page's language. */
  show(state = this.state) {
    this.state = state;
    const node = document.getElementById("connection");
    if (!node) return;
    node.dataset.state = state;
    node.textContent = t(`connection.${state}`);
  }
}
