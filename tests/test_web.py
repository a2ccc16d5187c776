"""The web page's JSON API (catena.web) through Starlette's TestClient, and ``python -m catena serve``
as a process; tests/test_web_browser.py drives the page itself in a real browser."""

import asyncio
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from starlette.testclient import TestClient

import catena
from catena.web import create_app

from conftest import serve_until_ctrl_c

FAST = {"iterations": 200, "seed": 1}


@pytest.fixture
def client():
    return TestClient(create_app())


def new(client, **fields):
    response = client.post("/api/games", json=dict(FAST, **fields))
    assert response.status_code == 201, response.text
    return response.json()


def post(client, state, action, expected=200, **fields):
    response = client.post(f"/api/games/{state['id']}/{action}", json=fields)
    assert response.status_code == expected, response.text
    return response.json()


def replayed(state):
    """The position the state's move list leads to, replayed by the library itself."""
    game = catena.Game(state["size"], state["game_type"], state["scoring"])
    for entry in state["moves"]:
        {"komi": game.choose_komi, "colour": game.choose_colour, "move": game.push}[entry["kind"]](entry["value"])
    return game


def board_cells(state):
    root = ET.fromstring(state["board"])
    return [e.get("data-cell") for e in root.iter() if e.get("class") == "cell"]


def test_the_address_fields_start_a_game_with_the_person_black_at_komi_0(client):
    """What /?size=4&komi=0&colour=black sends: the setup agreed, the person to move as Black."""
    state = new(client, size="4", komi="0", colour="black")
    assert (state["phase"], state["komi"], state["you"], state["your_colour"]) == ("play", 0, "P1", "black")
    assert state["to_act"] == "you" and not state["engine_to_act"]
    assert "Your move: black to move" in state["status"]
    assert [(m["kind"], m["value"], m["by"]) for m in state["moves"]] == [("komi", 0, "you"),
                                                                          ("colour", "white", "engine")]
    assert sorted(board_cells(state)) == sorted(catena.cells(4))       # every cell carries data-cell


def test_a_move_then_the_engines_reply(client):
    state = new(client, size=4, komi=0, colour="black")
    state = post(client, state, "move", move="d4")
    assert state["to_act"] == "engine" and state["engine_to_act"]
    assert state["moves"][-1]["text"] == "D4 (black, you)"
    state = post(client, state, "engine")
    reply = state["moves"][-1]
    assert (reply["kind"], reply["colour"], reply["by"]) == ("move", "white", "engine")
    assert state["to_act"] == "you" and not state["engine_to_act"]
    game = replayed(state)
    assert game.position.to_string() == state["position"]
    assert 'class="stone white" data-cell="%s"' % reply["value"] in state["board"]


def test_refusals_give_the_reason_and_change_nothing(client):
    state = new(client, size=4, komi=0, colour="black")
    state = post(client, state, "engine")                       # nothing to do: it is the person's move
    state = post(client, state, "move", move="D4")
    assert post(client, state, "move", 400, move="C3")["error"] == "it is the engine's turn, not yours"
    state = post(client, state, "engine")
    before = state["position"]
    assert "D4 is illegal: the cell is occupied" in post(client, state, "move", 400, move="D4")["error"]
    assert "Z9" in post(client, state, "move", 400, move="Z9")["error"]
    assert "cell name" in post(client, state, "move", 400, move=7)["error"]
    assert "not your decision now" in post(client, state, "komi", 400, komi=3)["error"]
    assert "missing field 'move'" in post(client, state, "move", 400)["error"]
    assert "unknown field 'cell'" in post(client, state, "move", 400, move="A1", cell="A1")["error"]
    assert client.get(f"/api/games/{state['id']}").json()["position"] == before


def test_an_illegal_placement_is_refused_with_its_rule(client):
    """F3: with stones on C5 D5 E5 G5 H6 H7, G6 would touch three stones (R7)."""
    game = catena.Game(6, "double")
    for cell in ["C5", "D5", "E5", "G5", "H6", "H7"]:
        game.push(cell)
    loaded = client.post("/api/games/load", json=dict(FAST, text=catena.write_game(game)))
    assert loaded.status_code == 201, loaded.text
    state = loaded.json()
    assert state["to_act"] == "you"
    error = post(client, state, "move", 400, move="G6")["error"]
    assert "G6 is illegal" in error and "(R7)" in error


def test_the_komi_setup_with_the_person_as_p1_or_p2(client):
    state = new(client, size=3)
    assert (state["phase"], state["to_act"], state["you"]) == ("komi", "you", "P1")
    assert "choose the komi" in state["status"] and state["komi_range"] == [0, 15]
    assert "0 to 15" in post(client, state, "komi", 400, komi=16)["error"]
    assert "whole number" in post(client, state, "komi", 400, komi="two")["error"]
    state = post(client, state, "komi", komi="2")
    assert (state["phase"], state["to_act"]) == ("colour", "engine")
    state = post(client, state, "engine")
    engine_colour = state["moves"][1]["value"]
    assert state["your_colour"] == ("white" if engine_colour == "black" else "black")
    if state["your_colour"] == "white":
        assert state["moves"][2]["by"] == "engine" and state["moves"][2]["kind"] == "move"

    state = new(client, size=3, you="P2")                        # the engine bids, the person picks
    assert state["engine_to_act"] and state["to_act"] == "engine"
    state = post(client, state, "engine")
    assert (state["phase"], state["to_act"]) == ("colour", "you") and state["moves"][0]["by"] == "engine"
    assert f"the komi is {state['komi']}" in state["status"]
    state = post(client, state, "colour", colour="white")
    assert state["your_colour"] == "white" and state["engine_to_act"]
    assert post(client, state, "colour", 400, colour="black")["error"] == "it is the engine's turn, not yours"


def test_a_colour_alone_makes_the_person_p2_and_is_taken_when_its_turn_comes(client):
    state = new(client, size=3, colour="white")
    assert state["you"] == "P2" and state["engine_to_act"]
    state = post(client, state, "engine")                        # komi, the agreed colour, Black's move
    assert [m["kind"] for m in state["moves"]] == ["komi", "colour", "move"]
    assert state["your_colour"] == "white" and state["to_act"] == "you"


def test_the_nokomi_setup(client):
    state = new(client, size=3, game_type="nokomi")
    assert (state["phase"], state["your_colour"]) == ("first_stone", "black")
    assert "place the first black stone" in state["status"]
    state = post(client, state, "move", move="C3")
    state = post(client, state, "engine")                        # the engine picks a colour (and moves)
    assert state["moves"][1]["kind"] == "colour" and state["to_act"] == "you"

    state = new(client, size=3, game_type="nokomi", stone="B2", colour="black")    # all agreed
    assert [m["value"] for m in state["moves"]] == ["B2", "white"]
    assert state["you"] == "P1" and state["engine_to_act"]       # P2 took White, who moves next
    state = new(client, size=3, game_type="nokomi", you="P2")
    state = post(client, state, "engine")
    assert (state["phase"], state["to_act"]) == ("colour", "you")
    assert "Black takes P1's stone" in state["status"]


def test_double_placement_the_engine_places_two_stones(client):
    state = new(client, size=4, game_type="double", colour="black")
    assert (state["you"], state["to_act"]) == ("P1", "you")
    state = post(client, state, "move", move="D4")
    state = post(client, state, "engine")
    assert [m["by"] for m in state["moves"]] == ["you", "engine", "engine"]
    assert "(two stones)" in state["status"]
    assert new(client, size=4, game_type="double", colour="white")["engine_to_act"]


def test_bad_new_game_fields_are_refused(client):
    for fields, words in [({"size": 11}, "side"), ({"size": "x"}, "whole number"), ({"game_type": "go"}, "game type"),
                          ({"komi": 99}, "15"), ({"game_type": "nokomi", "komi": 3}, "the komi is 0"),
                          ({"stone": "C3"}, "only a nokomi game"), ({"colour": "red"}, "colour"),
                          ({"iterations": 0}, "iterations"), ({"seconds": 1000}, "at most 60"),
                          ({"seconds": "soon"}, "number"), ({"you": "P3"}, "you"),
                          ({"game_type": "double", "colour": "white", "you": "P1"}, "P1 is Black"),
                          ({"game_type": "nokomi", "stone": "Q9"}, "Q9"), ({"turbo": 1}, "unknown field")]:
        response = client.post("/api/games", json=fields)
        assert response.status_code == 400, fields
        assert words in response.json()["error"], (fields, response.json())
    for body in (b"not json", b"[1, 2]"):
        response = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
        assert response.status_code == 400 and "JSON" in response.json()["error"]
    # a form another site's page could post here, without asking first: refused
    for body, kind in ((b'{"size": 2}', "text/plain"), (b"size=2", "application/x-www-form-urlencoded"), (b"", None)):
        response = client.post("/api/games", content=body, headers={"Content-Type": kind} if kind else {})
        assert response.status_code == 400 and "Content-Type: application/json" in response.json()["error"]
    assert client.get("/api/games/nosuchgame").status_code == 404
    assert "no game" in client.post("/api/games/nosuchgame/move", json={"move": "A1"}).json()["error"]


def test_undo_takes_back_the_persons_last_action_and_what_followed(client):
    state = new(client, size=4, komi=0, colour="black")
    for cell in ("D4", "B2"):
        state = post(client, state, "move", move=cell)
        state = post(client, state, "engine")
    assert len(state["moves"]) == 6
    state = post(client, state, "undo")
    assert state["undone"] == ["B2", state["undone"][1]] and len(state["moves"]) == 4
    assert state["to_act"] == "you"
    state = post(client, state, "undo")
    state = post(client, state, "undo")                          # the person's komi: back to the setup
    assert state["phase"] == "komi" and state["moves"] == [] and not state["can_undo"]
    assert "nothing of yours" in post(client, state, "undo", 400)["error"]


def test_hint_in_the_play_phase_and_in_the_setup(client):
    state = new(client, size=3, komi=2, colour="black")
    state = post(client, state, "hint")
    hint = state["hint"]
    assert len(hint["moves"]) == 3 and hint["advice"].startswith("these moves, best first: ")
    position = replayed(state).position
    assert all(position.is_legal(line["move"]) for line in hint["moves"])
    root = ET.fromstring(hint["heatmap"])
    valued = {e.get("data-cell") for e in root.iter() if e.get("class") == "value"}
    assert {line["move"] for line in hint["moves"]} <= valued
    assert [m["kind"] for m in state["moves"]] == ["komi", "colour"]             # a hint plays nothing
    assert "komi" in post(client, new(client, size=2), "hint")["hint"]["advice"]
    over = post(client, new(client, size=1, komi=0, colour="black"), "move", move="A1")
    assert over["phase"] == "over" and "game is over" in post(client, over, "hint", 400)["error"]


def test_taking_the_button(client):
    state = new(client, size=3, komi=0, colour="black")
    assert state["can_take_button"]
    state = post(client, state, "move", move="button")
    assert state["moves"][-1]["text"] == "button (black, you)" and not state["can_take_button"]
    state = post(client, state, "engine")
    assert "button: black" in state["status"] and not state["can_take_button"]
    assert "illegal" in post(client, state, "move", 400, move="button")["error"]
    assert not new(client, size=3, game_type="double", colour="black")["can_take_button"]


def test_the_end_of_a_game_says_who_won(client):
    state = post(client, new(client, size=1, komi=0, colour="black"), "move", move="A1")
    assert state["result"] == {"text": "P1 (black) wins: black 1, white 0.5", "winner": "P1", "you_win": True}
    assert state["status"] == "Game over: P1 (black) wins: black 1, white 0.5; you win. Claimed: A1 claimed by black."
    assert state["claims"] == ["A1 claimed by black"]
    assert state["moves"][-1]["text"] == "A1 (black, you): A1 claimed by black"
    assert state["to_act"] is None and not state["engine_to_act"]


def test_save_and_load_a_record_and_a_position_string(client):
    state = new(client, size=4, komi=1, colour="white")
    state = post(client, state, "engine")
    state = post(client, state, "move", move="A1")
    saved = client.get(f"/api/games/{state['id']}/record").json()
    record = catena.read_game(saved["record"])
    # the person gave the komi, so is P1, playing White as agreed; the engine, P2, took Black
    assert record.tags["P1"] == "you" and record.tags["P2"] == "catena MCTS 200 iterations"
    assert record.game().position.to_string() == saved["position"] == state["position"]

    loaded = client.post("/api/games/load", json=dict(FAST, text=saved["record"])).json()
    assert loaded["position"] == state["position"] and loaded["you"] == "P2"     # the side to act next
    assert loaded["id"] != state["id"] and loaded["engine_to_act"] is False
    as_white = client.post("/api/games/load", json={"text": saved["record"], "you": "white"}).json()
    assert as_white["you"] == "P1" and as_white["engine_to_act"]

    from_string = client.post("/api/games/load", json=dict(FAST, text=saved["position"])).json()
    assert from_string["position"] == state["position"] and from_string["moves"] == []
    assert from_string["your_colour"] == "black" and from_string["loaded_position"]
    moved = post(client, from_string, "move", move="B2")
    assert moved["moves"][0]["text"] == "B2 (black, you)"
    assert post(client, moved, "undo")["position"] == state["position"]
    assert client.get(f"/api/games/{from_string['id']}/record").json()["record"] is None
    for text, words in [("", "nothing to load"), ("4 komi standard 0 zz", "position"),
                        ('[Size "4"]\n\n1. Q1', "GameType"),
                        ('[Size "4"]\n[GameType "double"]\n[Scoring "standard"]\n\n1. Q1', "Q1")]:
        response = client.post("/api/games/load", json={"text": text})
        assert response.status_code == 400 and words in response.json()["error"], response.json()


def test_the_engine_setting_can_change(client):
    state = new(client, size=3, komi=0, colour="black")
    state = post(client, state, "strength", seconds="0.5")
    assert state["engine"] == {"iterations": None, "seconds": 0.5}
    state = post(client, state, "strength", iterations=300)
    assert state["engine"] == {"iterations": 300, "seconds": None}
    assert "1 to 1000000" in post(client, state, "strength", 400, iterations=0)["error"]


def test_two_games_are_apart(client):
    one, two = new(client, size=4, komi=0, colour="black"), new(client, size=4, komi=0, colour="black")
    assert one["id"] != two["id"]
    post(client, one, "move", move="D4")
    assert client.get(f"/api/games/{two['id']}").json()["position"] == two["position"]
    assert post(client, two, "move", move="A1")["moves"][-1]["value"] == "A1"


def test_the_least_recently_used_game_goes_when_the_server_is_full():
    client = TestClient(create_app(max_games=2))
    first, second = new(client, size=2), new(client, size=2)
    client.get(f"/api/games/{first['id']}")
    new(client, size=2)
    assert client.get(f"/api/games/{first['id']}").status_code == 200
    assert client.get(f"/api/games/{second['id']}").status_code == 404


def test_the_engine_thinks_off_the_event_loop(monkeypatch):
    """While one game's engine decides, the server answers another game and refuses a second
    action on the busy game.  The engine's komi decision is made to wait for the test's word
    (at most 30 s), so the test needs no search time; on the event loop it would hold up
    every request until then."""
    import threading

    import httpx2

    from catena.players import MCTSPlayer

    word = threading.Event()
    monkeypatch.setattr(MCTSPlayer, "choose_komi", lambda self, game: 3 if word.wait(30) else 0)

    async def scenario():
        transport = httpx2.ASGITransport(app=create_app())
        async with httpx2.AsyncClient(transport=transport, base_url="http://catena") as http:
            slow = (await http.post("/api/games", json={"size": 3, "you": "P2"})).json()
            other = (await http.post("/api/games", json={"size": 2})).json()
            thinking = asyncio.ensure_future(http.post(f"/api/games/{slow['id']}/engine", json={}))
            for _ in range(1000):                        # until the engine is at work
                await asyncio.sleep(0.01)
                if (await http.get(f"/api/games/{slow['id']}")).json()["busy"] == "thinking":
                    break
            answered = await http.post(f"/api/games/{other['id']}/komi", json={"komi": 1})
            refused = await http.post(f"/api/games/{slow['id']}/undo", json={})
            assert not thinking.done()
            word.set()
            return answered, refused, await thinking

    answered, refused, decided = asyncio.run(scenario())
    assert answered.status_code == 200 and answered.json()["komi"] == 1
    assert refused.status_code == 409 and "thinking" in refused.json()["error"]
    assert decided.status_code == 200 and decided.json()["komi"] == 3


def test_the_page_and_its_files(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for element in ('id="board"', 'id="moves"', 'id="status"', 'id="undo"', 'id="hint"', 'id="new-game"'):
        assert element in page.text
    for name in ("catena.js", "catena.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_serve_prints_its_address_and_stops_on_ctrl_c():
    returncode, out, err = serve_until_ctrl_c([])
    assert returncode == 130 and "stopped by Ctrl-C" in out, err
    assert "Traceback" not in err


def test_serve_refuses_a_port_in_use():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run([sys.executable, "-m", "catena", "serve", "--port", str(port), "--no-open"],
                              capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert proc.returncode == 2 and f"cannot serve on 127.0.0.1:{port}" in proc.stderr
    assert "Traceback" not in proc.stderr
