"""What the tests of one game share: a test may use one module of a game alone (its typed
table's parser, a screen), but the game's words are its descriptor's, which the registry
adds to the shared catalogue when it loads the game, as the table always does before it
uses any part of one. So every built-in game is loaded here, before the tests run, and
its part of the lab, whose words the lab adds when it loads it (`load_lab`)."""

from companion import games
from companion.lab.variants import load_lab

for _name in games.BUILT_IN:
    games.get(_name)
    load_lab(_name)
