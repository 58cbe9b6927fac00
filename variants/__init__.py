"""Variant data, rule plug-ins and board pictures, read by both the engine and the server."""
