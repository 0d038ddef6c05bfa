"""A third game that exists only in the tests, to prove the README's promise: a game is two files (its rules and its
table adapter) and one ``engine.register`` line. It has no computer player and no variants."""
