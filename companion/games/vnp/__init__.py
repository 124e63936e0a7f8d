"""Vous ne passerez pas !: everything of this game, in one package.

`rules/` is the pure engine (with `rules/fast`, the lab's), `referee` judges the table's
inputs, `screens` draws its OLED, `static/` draws its board on the web page, `page` is
what that page may send, `bots`, `sim` and `console` play it, `lab` measures it, and
`game` defines its `Game` descriptor.
Nothing is imported here, so that importing one part does not load the others.
"""
