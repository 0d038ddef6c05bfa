"""Write tests/storage/v1.sqlite3: a database as the bot before the move log (schema version 1) left it.

Run it with a checkout of that version (commit 518a489) first on the path:
``PYTHONPATH=old-checkout python tools/gen_v1_database.py tests/storage/v1.sqlite3``. The migration's test reads the
file and the positions written beside it (``v1.json``); the fixture needs regenerating only if it is lost.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from dataclasses import replace
from pathlib import Path

from cogs._storage import Storage, Table, now
from engine import no_thanks, the_game


async def main(out: Path) -> None:
    storage = await Storage.open(str(out))
    rng = random.Random(5)
    expected = {}

    # A running The Game, some cards laid.
    players = (101, 102, 103)
    state = the_game.new_game(players, seed=7001, expert=False)
    for _ in range(11):
        player = the_game.current_player(state) or players[0]
        actions = [a for a in the_game.legal_actions(state, player) if not isinstance(a, the_game.Leave)]
        state = the_game.apply(state, player, rng.choice(actions))
    table = await storage.create(
        Table(channel_id=1, guild_id=9, kind="the_game", host_id=101, players=players, variants=(), seed=7001)
    )
    await storage.save(replace(table, status="running", state=the_game.to_dict(state), started_at=now()))
    expected["1"] = {
        "hands": [list(h) for h in state.hands],
        "piles": [list(p) for p in state.piles],
        "moves": len(state.moves),
    }

    # A finished No Thanks!, played to the end.
    players = (201, 202, 203)
    state = no_thanks.new_game(players, seed=7002, open_chips=True)
    while not no_thanks.is_over(state):
        player = no_thanks.current_player(state)
        actions = [a for a in no_thanks.legal_actions(state, player) if not isinstance(a, no_thanks.Leave)]
        state = no_thanks.apply(state, player, rng.choice(actions))
    table = await storage.create(
        Table(
            channel_id=2,
            guild_id=9,
            kind="no_thanks",
            host_id=201,
            players=players,
            variants=("open_chips",),
            seed=7002,
        )
    )
    winner, tie = no_thanks.winner(state)
    await storage.save(
        replace(
            table,
            status="finished",
            state=no_thanks.to_dict(state),
            started_at=now(),
            ended_at=now(),
            result={"winner": winner, "tie_break": tie},
        )
    )
    expected["2"] = {"hands": [list(h) for h in state.hands], "chips": list(state.chips), "moves": len(state.moves)}

    # A lobby, and a running game whose state was damaged by hand.
    await storage.create(
        Table(channel_id=3, guild_id=9, kind="no_thanks", host_id=301, players=(301, 302), variants=(), seed=7003)
    )
    table = await storage.create(
        Table(channel_id=4, guild_id=9, kind="the_game", host_id=401, players=(401,), variants=(), seed=7004)
    )
    await storage.save(
        replace(table, status="running", state=the_game.to_dict(the_game.new_game((401,), seed=7004)), started_at=now())
    )
    await storage._db.execute("UPDATE games SET state = '{not json' WHERE channel_id = 4")
    await storage._db.commit()
    await storage._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    await storage.close()
    out.with_suffix(".json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    target = Path(sys.argv[1]).resolve()
    target.unlink(missing_ok=True)
    asyncio.run(main(target))
