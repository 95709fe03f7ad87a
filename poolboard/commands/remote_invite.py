"""``poolboard remote-invite``: a new invite code for a remote game, with both boards' config."""

from __future__ import annotations

import argparse

from poolboard.remote.protocol import Invite


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "remote-invite",
        help="make an invite code for a game against a board far away",
        description="Print a new invite code and the [opponent] and [remote] sections each "
        "board's config needs (docs/remote.md). Give the code to the other player privately: "
        "it is the key that signs the game's moves.",
    )
    parser.add_argument("--broker", default="broker.example.org", help="the broker's address")
    parser.add_argument(
        "--side", choices=("black", "white"), default="black", help="the side the host plays"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    invite = Invite.new()
    guest_side = "white" if args.side == "black" else "black"
    print(f"invite code: {invite}\n")
    for role, far_side in (("host", guest_side), ("guest", args.side)):
        print(f"# the {role}'s board.toml")
        print(
            f'[opponent]\nkind = "remote"\nside = "{far_side}"    # the side the other board plays'
        )
        print(f'[remote]\nbroker = "{args.broker}"\nuser = "<this board\'s broker user>"')
        print(f'password = "<its broker password>"\ninvite = "{invite}"\nrole = "{role}"\n')
    return 0
