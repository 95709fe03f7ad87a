"""The ``[remote]`` section and ``[opponent] kind = "remote"``: one clear error per mistake, and
what ``poolboard remote-invite`` prints is a config that loads (docs/remote.md)."""

import subprocess
import sys

import pytest

from poolboard.config import ConfigError, config_from_mapping, load_config
from poolboard.opponents import make_opponent
from poolboard.remote.opponent import RemoteOpponent
from poolboard.remote.protocol import Invite

GOOD = {
    "opponent": {"kind": "remote", "side": "white"},
    "remote": {
        "broker": "127.0.0.1",
        "user": "home",
        "password": "pw",
        "invite": "",
        "role": "host",
    },
}


def config(**changes):
    remote = {**GOOD["remote"], "invite": str(Invite.new()), **changes.pop("remote", {})}
    return {**GOOD, "remote": remote, **changes}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"remote": {"invite": "letmein"}}, "[remote] invite: an invite code is <game>-<secret>"),
        ({"remote": {"role": "boss"}}, "[remote] role: expected host or guest, got 'boss'"),
        ({"remote": {"user": "a/b"}}, "[remote] user: board name 'a/b'"),
        ({"remote": {"user": ""}}, "[remote] user: a remote board needs its broker user name"),
        ({"remote": {"invite": ""}}, "[remote] invite: a remote board needs the game's invite"),
        ({"remote": {"port": "1883"}}, "[remote] port: expected an integer, got '1883'"),
        ({"remote": {"tls": "yes"}}, "[remote] tls: expected true or false, got 'yes'"),
        ({"remote": {"port": 0}}, "[remote] port: expected an integer 1-65535, got 0"),
        ({"remote": {"keepalive": 1}}, "[remote] keepalive: expected 2-600 seconds, got 1"),
        ({"remote": {"ca_file": "/nonexistent.pem"}}, "[remote] ca_file: no such file"),
        ({"remote": {"colour": "red"}}, "[remote] colour: unknown key"),
        ({"opponent": {"kind": "engine"}}, '[opponent] kind: kind = "remote" and a [remote]'),
        ({"remote": {"broker": ""}}, '[opponent] kind: kind = "remote" and a [remote] broker'),
    ],
)
def test_a_wrong_remote_setting_is_named(changes, message) -> None:
    with pytest.raises(ConfigError) as error:
        config_from_mapping(config(**changes), "board.toml")
    assert message in str(error.value)
    assert str(error.value).startswith("board.toml: ")


def test_a_malformed_key_is_named_even_with_no_remote_game() -> None:
    """Each key's form is checked as the file is read, whether or not a game is set up."""
    with pytest.raises(ConfigError, match=r"^board.toml: \[remote\] role: expected host or guest"):
        config_from_mapping({"remote": {"role": "boss"}}, "board.toml")


def test_a_board_toml_written_for_an_earlier_version_loads(tmp_path) -> None:
    """The ``[remote]`` section as docs/remote.md has always shown it loads as before."""
    path = tmp_path / "board.toml"
    path.write_text(
        '[opponent]\nkind = "remote"\nside = "black"\n\n'
        '[remote]\nbroker = "broker.example.org"\nport = 8883\nuser = "bobs-board"\n'
        'password = "..."\ntls = true\nkeepalive = 30\n'
        'invite = "z27g5vbr46-IesZwEwL1pWUDPEBzfNp5Q"\nrole = "guest"\n'
    )
    remote = load_config(path).remote
    assert (remote.broker, remote.port, remote.user, remote.tls) == (
        "broker.example.org", 8883, "bobs-board", True
    )  # fmt: skip
    assert (remote.keepalive, remote.role, Invite.parse(remote.invite).game) == (
        30, "guest", "z27g5vbr46"
    )  # fmt: skip


def test_a_remote_opponent_is_made_from_the_config() -> None:
    loaded = config_from_mapping(config())
    opponent = make_opponent(loaded.opponent, loaded.remote)
    try:
        assert isinstance(opponent, RemoteOpponent)
        assert opponent.describe()["kind"] == "remote" and opponent.side.value == "white"
    finally:
        opponent.close()


def test_remote_invite_prints_a_config_each_board_can_load(tmp_path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "remote-invite", "--broker", "10.0.0.5"],
        capture_output=True,
        text=True,
        check=True,
    )
    code = done.stdout.splitlines()[0].removeprefix("invite code: ")
    Invite.parse(code)
    sections = done.stdout.split("\n# the ")[1:]
    assert [s.split("'")[0] for s in sections] == ["host", "guest"]
    for role, text in zip(("host", "guest"), sections, strict=True):
        body = text.split("\n", 1)[1].replace("<this board's broker user>", "home")
        path = tmp_path / "board.toml"
        path.write_text(body.replace("<its broker password>", "pw"))
        loaded = load_config(path)
        assert loaded.remote.invite == code and loaded.remote.role == role
        assert loaded.opponent.kind == "remote" and loaded.remote.broker == "10.0.0.5"


def test_a_ca_file_that_holds_no_certificate_is_named(tmp_path) -> None:
    ca_file = tmp_path / "ca.pem"
    ca_file.write_text("not a certificate\n")
    with pytest.raises(ConfigError) as error:
        config_from_mapping(config(remote={"tls": True, "ca_file": str(ca_file)}), "board.toml")
    assert str(error.value).startswith(f"board.toml: [remote] ca_file: {ca_file}: no certificate")
