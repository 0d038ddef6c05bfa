"""The web table (issue 37): a second front end of the same core as the channel, served by the bot's own process.

``WEB_PORT`` turns it on (off by default: no port opened, no link on any panel). Parts:

- ``tokens``: the personal link, an HMAC-signed (game, player) pair; the key is random, kept in the database.
- ``page``: what one player's page shows, a pure function of the committed game and that player's seat (never
  another hand, the draw order or No Thanks! chips), in the player's language.
- ``server``: aiohttp's own ``web`` and WebSocket: the page, its hand-written assets, the links, the sockets; a
  strict CSP and a cap on open pages.
- ``messages``: what a page's message asks for (a move, a hint, a vote, leaving, a replay step); every move goes
  through ``Table.act_for``, the same commit as a panel click; the per-player rate limit.
- ``live``: the open pages, following every committed move (the core's ``Transition``), wherever it was made.
- ``replay``: a game that ended, turn by turn; ``names``: display names for the page.

The page itself (``static/``) is a thin client: it draws what the server sends and sends back what was tapped.
"""
