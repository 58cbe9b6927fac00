"""Build-time tool that draws variant boards from real geography.

Run ``python -m variants.mapbuild <variant>``. Everything here except ``adjacency`` needs the
``maps`` extra (shapely, pyproj, numpy); the server only reads the committed outputs.
"""
