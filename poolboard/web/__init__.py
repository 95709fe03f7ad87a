"""The web UI: spectator, virtual-board and referee pages and their JSON/WebSocket API.

``poolboard.web.app.create_app(session)`` builds the FastAPI application; ``serve_web`` runs it
for ``poolboard run`` and ``poolboard demo``. docs/web.md describes the pages, docs/api.md the API.
"""
