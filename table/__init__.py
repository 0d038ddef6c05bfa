"""The table: the bot's application core, between the Discord adapters in ``cogs/`` and the rules in ``engine/``.

Parts with one job each (README, *Architecture*):

- ``games``: load a channel's game, replay its move log once per process, commit a move by compare-and-swap, the
  per-game cache. It announces every committed move once, as a ``Moved`` event (``events``), and knows no listener.
- ``boards``: compose a board with the game's presenter, post it, edit it in place in order, supersede the old one.
- ``end_screen``: what every end screen adds under the result: these players' record, the Rematch and Replay buttons.
- ``courier``: durable DMs (what each player's DM last showed is stored, so a restart delivers the rest).
- ``seats``: every move no person made (computer players, the autopilot), through the same commit as people's moves.
- ``clock``: turn deadlines and reminders; reacts to ``Moved``; ``votes``: the table's votes on an away player.
- ``panels``: the private hand panels, one live per player and game, kept current as the table moves (``Moved``).
- ``answer``: the one way an interaction is answered, whatever state it is in (fresh, deferred, answered, expired).
- ``wire``: the edits and posts whose reply nobody reads (boards, panels, DMs), without discord.py's ``Message``.
- ``flow``: the facade the cogs call (``Table``), wiring the parts together.

Nothing here imports ``bot.py`` or ``cogs``; the package's ``__init__`` imports nothing, so no part closes a circle.
"""
