"""The table: the bot's application core, between the Discord adapters in ``cogs/`` and the rules in ``engine/``.

Parts with one job each (README, *Architecture*):

- ``games``: load a channel's game, replay its move log once per process, commit a move by compare-and-swap, the
  cache of committed games (``live``). It makes every committed move into one ``Transition`` (``transition``) and
  announces it once (``events``), and knows no listener.
- ``boards``: compose a board with the game's presenter, post it, edit it in place in order, supersede the old one.
- ``end_screen``: what every end screen adds under the result: these players' record, the Rematch and Replay buttons.
- ``courier``: durable DMs (what each player's DM last showed is stored, so a restart delivers the rest).
- ``seats``: every move no person made (computer players, the autopilot), through the same commit as people's moves.
- ``clock``: turn deadlines and reminders; reacts to a ``Transition``, says ``TurnRanOut``; ``votes``: the table's
  votes on an away player.
- ``panels``: the private hand panels, one live per player and game, kept current as the table moves.
- ``reply``: the answer to the person who acted, planned from the Transition (``reply_plan``) and sent in one place.
- ``answer``: the one way an interaction is answered, whatever state it is in (fresh, deferred, answered, expired).
- ``wire``: the edits and posts whose reply nobody reads (boards, panels, DMs), without discord.py's ``Message``.
- ``flow``: the facade the cogs call (``Table``), wiring the parts together.

Nothing here imports ``bot.py`` or ``cogs``; the package's ``__init__`` imports nothing, so no part closes a circle.
"""
