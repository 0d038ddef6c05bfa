"""Pure rules engines: no Discord, no asyncio, no database, no clock, no global randomness.

Each rules module offers one ``Game`` (``engine.game``) describing itself with ``GameInfo``; a computer player for it
is optional (``engine.ai``). The engine keeps no list of games: a game is hosted through its registration
(``table.registry``), which joins its rules with its table adapter.
"""
