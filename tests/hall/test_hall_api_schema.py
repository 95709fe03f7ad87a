"""The hall's API describes its answers in ``/openapi.json``: each JSON route names the model
it sends, and the models list their fields (the same JSON as before they were typed)."""

from fastapi.testclient import TestClient

from poolboard.hall.broadcast import Broadcast
from poolboard.hall.event import EventStore
from poolboard.hall.monitor import HallMonitor
from poolboard.hall.settings import hall_config_from_mapping
from poolboard.hall.web import create_hall_app


def test_every_json_answer_of_the_hall_is_described(tmp_path) -> None:
    config = hall_config_from_mapping(
        {"broker": {"hall_password": "h"}, "tables": [{"name": "t1", "password": "p"}]}
    )
    event = EventStore(tmp_path / "hall.sqlite3", config.table_names, 2)
    monitor = HallMonitor(config, event)
    try:
        app = create_hall_app(monitor, Broadcast(monitor))
        with TestClient(app, base_url="http://127.0.0.1:8090") as client:
            schema = client.get("/openapi.json").json()
    finally:
        event.close()
    undescribed = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            answer = operation["responses"]["200"]["content"]
            if "application/json" in answer and not answer["application/json"]["schema"]:
                undescribed.append(f"{method.upper()} {path}")
    assert undescribed == []
    models = schema["components"]["schemas"]
    tile = models["Tile"]["properties"]
    assert {"table", "online", "fen", "clock", "words", "black", "white"} <= set(tile)
    hall = {"event", "round", "started", "rounds", "tables", "language", "languages"}
    assert set(models["HallView"]["properties"]) == hall
    assert models["TableDetail"]["properties"]["state"]["anyOf"][0]["$ref"].endswith("BoardState")
    assert set(models["DescribedResult"]["properties"]) >= {"black", "white", "words"}
    assert set(models["Alert"]["properties"]) >= {"id", "table", "kind", "message", "ref"}
