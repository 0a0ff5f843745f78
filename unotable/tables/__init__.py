"""Shared tables: several players, each in their own terminal, at one table.

``service.TableService`` runs every table of a server (one controller per table) and
speaks ``protocol`` over a local socket; ``client.TableClient`` is a player's side.
"""

# What a served player's table process is told (by ``unotable serve``) in its environment.
TABLES_ENV = "UNOTABLE_TABLES"  # the shared tables' socket
IDENTITY_ENV = "UNOTABLE_IDENTITY"  # "key:<fingerprint>" or "web:<tab>": who the player is
PLAYER_ENV = "UNOTABLE_PLAYER"  # the player's login name, for their seat
