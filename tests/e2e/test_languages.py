"""Issue 23 end to end: one table, three languages. What only one person sees (their hand panel, their refusals,
their DMs, /rules) is in that person's Discord language; what the table sees (lobby, board, announcements) is in the
server's language, and follows the server's own choice when it makes one (``table.language.table_locale``)."""

from __future__ import annotations

from typing import Any

import pytest

import table.language
from engine import the_game
from tests.e2e.conftest import World
from tests.fake_discord import InteractionRecord, Member, Message
from tests.players import public_messages, saved_game

# Each player's own words for their hand, and the refusal of a card they don't hold.
HAND = {"de": "Deine Hand: ", "fr": "Ta main : ", "es-419": "Tu mano: "}
NOT_HELD = {
    "de": "Diese Karte hast du nicht auf der Hand.",
    "fr": "Tu n'as pas cette carte en main.",
    "es-419": "No tienes esa carta en la mano.",
}
END_TURN = {"de": "Zug beenden", "fr": "Finir le tour", "es-419": "Terminar turno"}
RULES = {
    "de": "**The Game**: ein kooperatives Spiel",
    "fr": "**The Game** : un jeu coopératif",
    "es-419": "**The Game**: un juego",
}


def answer_of(rec: InteractionRecord) -> Any:
    assert rec.response is not None, rec
    return rec.response


def fields(message: Message) -> dict[str, str]:
    return {item["name"]: item["value"] for item in message.embeds[0].get("fields", [])}


def labels(message: Message) -> list[str]:
    return [str(button.get("label")) for button in message.buttons]


def newest_board(world: World) -> Message:
    return [m for m in public_messages(world.fake, world.channel) if m.embeds][-1]


def hand_of(world: World, member: Member) -> tuple[int, ...]:
    saved = saved_game(world)
    assert saved is not None
    assert saved[1] is not None
    return the_game.hand(saved[1], member.id)


@pytest.fixture
def table_of_three(world: World) -> tuple[Member, Member, Member]:
    """A German server (its Community language) where ana plays in German, ben in French and cy in Latin-American
    Spanish."""
    world.guild.preferred_locale = "de"
    ana, ben, cy = world.players[:3]
    for member, locale in ((ana, "de"), (ben, "fr"), (cy, "es-419")):
        world.fake.users[member.id].locale = locale
    return ana, ben, cy


async def test_each_player_reads_their_own_language_and_the_table_the_servers(
    world: World, table_of_three: tuple[Member, Member, Member], monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, ben, cy = table_of_three
    locales = {ana.id: "de", ben.id: "fr", cy.id: "es-419"}
    async with world.bot() as bot:
        opened = await world.fake.invoke("newgame", user=ana, channel=world.channel)
        lobby = answer_of(opened).message
        assert lobby is not None
        # The lobby is the table's: German, whoever opened it.
        assert lobby.embeds[0]["title"] == "The Game: Warteraum"
        assert labels(lobby)[:3] == ["Mitspielen", "Aussteigen", "Starten"]
        await world.fake.click(lobby, "lobby:join", user=ben)
        await world.fake.click(lobby, "lobby:join", user=cy)
        assert lobby.content == f"{cy.mention} spielt mit."
        await world.fake.click(lobby, "lobby:start", user=ana)

        # The board: the server's language.
        board = newest_board(world)
        assert board.content.startswith("The Game beginnt")
        assert {"Nachziehstapel", "Variante", "Spieler", "Zug"} <= set(fields(board))
        assert "Meine Hand" in labels(board)

        # DMs: each in the language last seen from that player.
        for member in (ana, ben, cy):
            dm = await world.fake.wait_dm(member, lambda m: bool(m.content))
            expected = HAND[locales[member.id]] + ", ".join(map(str, hand_of(world, member)))
            assert dm.content == expected, (member.name, dm.content)

        # The hand panel and a refusal: each in their own language, privately.
        for member in (ana, ben, cy):
            locale = locales[member.id]
            shown = await world.fake.click(board, "the_game:hand", user=member)
            panel = answer_of(shown)
            assert panel.ephemeral
            assert panel.content.startswith(HAND[locale]), panel.content
            assert END_TURN[locale] in [str(b.get("label")) for b in panel.message.buttons]
            missing = next(card for card in range(2, 100) if card not in hand_of(world, member))
            refused = await world.fake.invoke(
                "play", user=member, channel=world.channel, options={"card": missing, "pile": "A"}
            )
            assert answer_of(refused).ephemeral
            assert answer_of(refused).content == NOT_HELD[locale]
            rules = await world.fake.invoke("rules", user=member, channel=world.channel)
            assert answer_of(rules).ephemeral
            assert answer_of(rules).content.startswith(RULES[locale])

        # Each player's language is kept for their DMs, across restarts.
        assert await bot.storage.get_meta(f"locale:{ben.id}") == "fr"

        # The server chooses French for its tables: the table's texts follow, each player's stay their own.
        monkeypatch.setattr(table.language, "table_locale", lambda guild_id: "fr")
        card = min(hand_of(world, ana))
        played = await world.fake.invoke("play", user=ana, channel=world.channel, options={"card": card, "pile": "A"})
        assert answer_of(played).ephemeral
        assert HAND["de"] in answer_of(played).content  # ana's own panel: still German
        await world.fake.wait_idle()
        board = newest_board(world)
        assert f"{ana.mention} a posé le {card} sur A." in board.content
        assert {"Pioche", "Variante", "Joueurs", "Tour"} <= set(fields(board))
        assert "Ma main" in labels(board)
        # A refusal stays in the reader's language whatever the table speaks.
        early = await world.fake.invoke("endturn", user=cy, channel=world.channel)
        assert answer_of(early).content == "No es tu turno."


async def test_without_a_choice_the_table_speaks_the_servers_discord_language(
    world: World, table_of_three: tuple[Member, Member, Member]
) -> None:
    ana, ben, _cy = table_of_three
    world.guild.preferred_locale = "es-ES"
    async with world.bot():
        opened = await world.fake.invoke("newgame", user=ana, channel=world.channel, options={"game": "no_thanks"})
        lobby = answer_of(opened).message
        assert lobby is not None
        assert lobby.embeds[0]["title"] == "No Thanks!: sala de espera"
        assert labels(lobby)[:3] == ["Unirse", "Salir", "Empezar"]
        # A refusal is its reader's (ana reads German, ben French), not the table's.
        again = await world.fake.click(lobby, "lobby:join", user=ana)
        assert answer_of(again).ephemeral
        assert answer_of(again).content == "Du spielst schon mit."
        refused = await world.fake.click(lobby, "lobby:start", user=ben)
        assert answer_of(refused).ephemeral
        assert answer_of(refused).content == f"Seul l'hôte, {ana.mention}, peut lancer la partie."
