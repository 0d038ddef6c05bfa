"""Pure rules engines: no Discord, no asyncio, no database, no clock, no global randomness."""
