"""Shared tables: several players, each in their own terminal, at one table.

``service.TableService`` runs every table of a server (one controller per table) and
speaks ``protocol`` over a local socket; ``client.TableClient`` is a player's side.
"""
