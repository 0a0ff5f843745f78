"""Shared tables: several players, each in their own terminal, at one table.

``service.TableService`` runs every table of a server (one controller per table) and
speaks ``protocol`` over a local socket; ``client.TableClient`` is a player's side.
"""

# What a served player's table process is told (by ``unotable serve``) in its environment.
TABLES_ENV = "UNOTABLE_TABLES"  # the shared tables' socket
# who the player is, and from where: "key:<fingerprint>@<address>", "web:<tab>@<address>"
# or "ssh:<session>@<address>" (a password or open login)
IDENTITY_ENV = "UNOTABLE_IDENTITY"
PLAYER_ENV = "UNOTABLE_PLAYER"  # the player's login name, for their seat

# A server's limits on its shared tables (each has a ``unotable serve`` flag).
DEFAULT_MAX_TABLES = 10
DEFAULT_MAX_TABLES_PER_PLAYER = 1  # open tables one key (or address) may have created
DEFAULT_MAX_SEATS = 8  # every game seats 2 to 8; a server may allow fewer per table
DEFAULT_GRACE = 120.0  # seconds a dropped player's seat waits before a computer plays it
DEFAULT_IDLE_CLOSE = 30 * 60.0  # an unstarted or deserted table is closed (its save stays)
DEFAULT_TURN_TIME = 60.0  # seconds for a turn before a computer plays it (0: no limit)
MIN_TURN_TIME, MAX_TURN_TIME = 10, 600
