"""`python -m pitkit.cli`: the `pitkit` command."""

from pitkit.cli import main

main()
