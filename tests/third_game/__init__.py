"""A third game that exists only in the tests, to prove the README's promise: a game is two files (its rules and its
table adapter, which builds its ``Registration``) and one ``register`` line (``games.py``; here, the test's fixture).
It has no computer player, no variants, no end picture, no first-game texts of its own and no secrets."""
