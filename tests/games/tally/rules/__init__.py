"""Tally's pure rules: `engine` (types and moves) and `contract` (its `ENGINE`)."""
