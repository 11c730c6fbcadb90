"""The HTTP and WebSocket routes, one small router per concern; ``app.create_app`` includes them."""
