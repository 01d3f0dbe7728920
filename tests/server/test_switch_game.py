"""The host switches the game at the same table, through a real server and real WebSockets: every phone and the
TV get the new game's lobby (same code, no new join, the TV still paired), people beyond its chairs watch, a
game of it is played, and a restart keeps the switch."""

from __future__ import annotations

from gemtable.client import Client

from .harness import ServerProcess
from .test_game_flow import run


def test_the_host_switches_to_booty_hunter_at_the_same_table_and_a_restart_keeps_it(server: ServerProcess) -> None:
    code = server.create_table(seconds=30)

    async def scenario() -> None:
        names = ("Ann", "Bob", "Cy", "Dee")
        phones = [await Client.open(server.ws) for _ in names]
        for phone, name in zip(phones, names, strict=True):
            await phone.join(code, name)
        tv = await Client.open(server.ws)
        await tv.hello(code, tv=True)
        ann, dee = phones[0], phones[3]
        await ann.change_settings(game="booty")
        for client in (*phones, tv):
            state = await client.until(lambda s: s["game"] == "booty")
            assert state["chairs"] == 3 and state["phase"] == "lobby" and state["code"] == code
        state = await dee.until(lambda s: s["game"] == "booty")
        assert state["me"]["chair"] is None and state["me"]["status"] == "watching"  # the fourth: watches
        await ann.start()
        state = await tv.until(lambda s: s["phase"] == "playing")
        assert state["game"] == "booty" and state["game_number"] == 1
        for client in (*phones, tv):
            await client.close()

    run(scenario())
    server.kill()
    server.start()

    async def after() -> None:
        tv = await Client.open(server.ws)
        state = await tv.hello(code, tv=True)
        assert state["game"] == "booty" and state["phase"] == "playing"
        await tv.close()

    run(after())
