"""The game server: ASGI app, WebSocket endpoint, HTTP routes and QR codes (thin adapters)."""
