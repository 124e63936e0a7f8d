"""What the configuration's checks say, in French and English: each problem of a file, its
fix, and `companion config check`'s summary, under ``cli.cfg.`` of the command line's
books (`companion.cli_words.books`), said in the command line's language.

A configuration is checked before its own ``[game] language`` is known (it may not even
parse), so its problems are said in the command line's language (`cli_words.language`:
``--lang``, ``$COMPANION_LANG``, the file's language when it parses, the locale, French).
A fix that never changes is a key here (``cfg.fix.*``), which the `Checker` says when a
value is refused (`companion.cli_words.text_of`); `bounds.Seconds.fix` is one too, so the
command line options that set the same value refuse it with the same words.
"""

from __future__ import annotations

from companion.config.names import (
    DEFAULT_DATA_DIR,
    DEFAULT_PICO_PORT,
    DISPLAY_DRIVERS,
    LANGUAGES,
    READER_KINDS,
)
from companion.phrasebook import Book

PREFIX = "cli.cfg."


def fix(name: str) -> str:
    """The key of the fix ``name`` (``cfg.fix.<name>``), which the checks say lazily."""
    return f"{PREFIX}fix.{name}"


def say(name: str, /, **fields: object) -> str:
    """The configuration's phrase ``name`` in the command line's language."""
    return BOOK.say(name, **fields)


def _listed(options: tuple[object, ...]) -> str:
    return ", ".join(f'"{o}"' if isinstance(o, str) else str(o) for o in options)


_LANGS = _listed(LANGUAGES)
_DRIVERS = _listed(DISPLAY_DRIVERS)
_KINDS = _listed(READER_KINDS)

WORDS: dict[str, tuple[str, str]] = {
    # how a problem is written
    "bad": ("{name} : {key} = {shown} : {fix}", "{name}: {key} = {shown}: {fix}"),
    "line": ("{name} : {problem}", "{name}: {problem}"),
    "table": ("doit être une table : écrivez [{key}] seul sur sa ligne",
              "must be a table: write [{key}] on a line of its own"),
    "unknown": ("{name} : {key} : clé inconnue (les clés connues ici : {known} ; vérifiez "
                "l’orthographe dans docs/companion.example.toml)",
                "{name}: {key}: unknown key (known keys here: {known}; check the spelling "
                "against docs/companion.example.toml)"),
    "too_large": ("un nombre trop grand", "a number too large"),
    # reading the file
    "too_big": ("{name} : plus de {n} octets, trop gros pour une configuration ou un plan des "
                "broches : est-ce le bon fichier ?",
                "{name}: more than {n} bytes, too big for a configuration or a pin map: is it "
                "the right file?"),
    "no_file": ("{name} : pas de tel fichier : donnez un fichier qui existe à --config, ou "
                "copiez-y docs/companion.example.toml",
                "{name}: no such file: give an existing file to --config, or copy "
                "docs/companion.example.toml there"),
    "cannot_read": ("{name} : impossible de le lire : {why}", "{name}: cannot read it: {why}"),
    # fixes that never change
    "fix.settle": ("secondes d’immobilité de la table avant qu’un changement soit jugé : "
                   "0,05 à 5 (0,5 par défaut)",
                   "seconds the table must be still before a change is judged: 0.05 to 5 "
                   "(default 0.5)"),
    "fix.schema": ("doit valoir 1 (le seul schéma à ce jour)",
                   "must be 1 (the only schema so far)"),
    "fix.language": (f"la langue de l’OLED : {_LANGS}", f"the OLED language: {_LANGS}"),
    "fix.seed": ("un nombre entier >= 0, ou retirez la clé pour une graine nouvelle à chaque "
                 "partie",
                 "a whole number >= 0, or leave the key out for a new seed every game"),
    "fix.driver": (f"choisissez parmi {_DRIVERS} (beaucoup de modules de 1,3\" sont des "
                   "sh1106, ceux de 0,96\" des ssd1306)",
                   f'choose one of {_DRIVERS} (many 1.3" modules are sh1106, 0.96" ones '
                   "ssd1306)"),
    "fix.i2c_bus": ("le numéro du bus I2C : 1 sur un Raspberry Pi (/dev/i2c-1)",
                    "the I2C bus number: 1 on a Raspberry Pi (/dev/i2c-1)"),
    "fix.address": ("une adresse I2C sur 7 bits, d’habitude 0x3C (parfois 0x3D) ; "
                    "`i2cdetect -y 1` la montre",
                    "a 7-bit I2C address, usually 0x3C (sometimes 0x3D); `i2cdetect -y 1` "
                    "shows it"),
    "fix.rotation": ("des degrés, 0 ou 180 (les écrans sont en 128x64 paysage ; 180 retourne "
                     "un module monté à l’envers)",
                     "degrees, 0 or 180 (the screens are 128x64 landscape; 180 turns a module "
                     "mounted upside down)"),
    "fix.contrast": ("un nombre entier de 0 (sombre) à 255 (vif)",
                     "a whole number from 0 (dim) to 255 (bright)"),
    "fix.boolean": ("true ou false (sans guillemets)", "true or false (no quotes)"),
    "fix.bounce_ms": ("les millisecondes d’immobilité d’un bouton : un nombre entier de 1 à "
                      "200 (30 par défaut)",
                      "milliseconds a button must be still: a whole number from 1 to 200 "
                      "(default 30)"),
    "fix.long_press_ms": ("les millisecondes d’un appui long : un nombre entier de 200 à 5000 "
                          "(800 par défaut)",
                          "milliseconds of a long press: a whole number from 200 to 5000 "
                          "(default 800)"),
    "fix.kind": (f"choisissez parmi {_KINDS}", f"choose one of {_KINDS}"),
    "fix.port": (f"le périphérique série du Pico, par exemple \"{DEFAULT_PICO_PORT}\" (le nom "
                 "que donne la règle udev)",
                 f"the Pico's serial device, e.g. \"{DEFAULT_PICO_PORT}\" (the udev rule's "
                 "name)"),
    "fix.settle_us": ("les microsecondes laissées aux tags pour s’alimenter : un nombre entier "
                      "de 0 à 20000 (par défaut : ce qu’a mesuré companion doctor --walk, "
                      "sinon 300)",
                      "microseconds the tags get to power up: a whole number from 0 to 20000 "
                      "(default: what companion doctor --walk measured, else 300)"),
    "fix.web_enabled": ("true ou false (sans guillemets) : servir la page web de la table",
                        "true or false (no quotes): serve the table's web page"),
    "fix.host": ("une adresse IP où écouter : \"0.0.0.0\" pour tout le réseau local (par "
                 "défaut), \"127.0.0.1\" pour le Pi seul",
                 'an IP address to listen on: "0.0.0.0" for the whole local network '
                 '(default), "127.0.0.1" for the Pi alone'),
    "fix.web_port": ("un port TCP de 1 à 65535 (8080 par défaut)",
                     "a TCP port from 1 to 65535 (default 8080)"),
    "fix.pairing_hours": ("les heures que dure l’appairage d’un téléphone, de 0 (jusqu’à la "
                          "fin de la partie, par défaut) à 720",
                          "hours a phone's pairing lasts, from 0 (until the game ends, "
                          "default) to 720"),
    "fix.data_dir": ("un dossier où le service peut écrire (journal, tags.json), par exemple "
                     f"\"{DEFAULT_DATA_DIR}\"",
                     "a directory the service may write (journal, tags.json), e.g. "
                     f"\"{DEFAULT_DATA_DIR}\""),
    "fix.pins": ("le chemin du plan des broches, par exemple \"/etc/companion/pins.toml\"",
                 'the path of the pin map, e.g. "/etc/companion/pins.toml"'),
    "fix.resume_wait": ("les secondes d’attente des lecteurs après un redémarrage : 0 à 30",
                        "seconds to wait for the readers after a restart: 0 to 30"),
    "fix.spi_spots": ("une paire [bus, périphérique] par lecteur, le pad d’abord, par exemple "
                      "[[0, 0], [0, 1]]",
                      "one [bus, device] pair per reader, pad first, e.g. [[0, 0], [0, 1]]"),
    "fix.volume": ("un nombre entier de 0 (muet) à 100 (70 par défaut)",
                   "a whole number from 0 (silent) to 100 (default 70)"),
    "fix.rate": ("des mots par minute : un nombre entier de 80 à 400 (160 par défaut)",
                 "words per minute: a whole number from 80 to 400 (default 160)"),
    "fix.interrupt": ("true ou false (sans guillemets) : true coupe la phrase en cours quand "
                      "une plus récente arrive",
                      "true or false (no quotes): true cuts the sentence being spoken when a "
                      "newer one comes"),
    "fix.tls": ("true (par défaut : TLS) ou false (MQTT en clair, pour un broker sur un "
                "réseau fermé seulement : docs/club.md)",
                "true (the default: TLS) or false (plain MQTT, for a broker on a closed "
                "network only: docs/club.md)"),
    "fix.username": ("l’utilisateur de la table sur le broker (par défaut : le nom de la "
                     "table, qu’attend l’ACL du club)",
                     "the table's user on the broker (default: the table's name, which the "
                     "club's ACL expects)"),
    "fix.password": ("le mot de passe de l’utilisateur sur le broker (mosquitto_passwd le "
                     "fixe), entre guillemets",
                     "the user's password on the broker (mosquitto_passwd sets it), in "
                     "quotes"),
    "fix.tls_ca": ("le certificat de l’AC du broker (PEM)",
                   "the broker's CA certificate file (PEM)"),
    # fixes that name something of the file
    "choose": ("choisissez parmi {options}", "choose one of {options}"),
    "backend": ("choisissez parmi {options} (espeak-ng : sudo apt-get install espeak-ng)",
                "choose one of {options} (espeak-ng: sudo apt-get install espeak-ng)"),
    "voice": ("un nom de voix espeak-ng fait de lettres, chiffres, '-', '_' et '+', par "
              "exemple {example} (`espeak-ng --voices={code}` les liste)",
              "an espeak-ng voice name of letters, digits, '-', '_' and '+', e.g. {example} "
              "(`espeak-ng --voices={code}` lists them)"),
    "or": (" ou ", " or "),
    "first": ("le premier joueur est un numéro de place de 1 à {n} (celui que la règle du "
              "jeu désigne)",
              "the first player is a seat number from 1 to {n} (the one the game's rule "
              "book names)"),
    "rules_table": ("écrivez [game.rules] avec les réglages de règles du jeu",
                    "write [game.rules] with the game's rule settings"),
    "as_json": ("{why} (le journal l’enregistre en JSON : nombres, chaînes, booléens, listes "
                "et tables, ni date ni heure, ni inf ni nan, {depth} niveaux au plus)",
                "{why} (the journal records it as JSON: numbers, strings, booleans, lists and "
                "tables, no date or time, no inf or nan, at most {depth} levels deep)"),
    "rules": ("{why} (docs/rulings.md liste les réglages de chaque jeu)",
              "{why} (docs/rulings.md lists each game's settings)"),
    "seats": ("donnez de 2 à 6 noms différents de {longest} caractères au plus, dans le sens "
              "des aiguilles d’une montre depuis la place 1, par exemple [\"Ana\", \"Bob\", "
              "\"Cy\"], ou un nombre de places de 2 à 6",
              "give 2 to 6 different names of up to {longest} characters clockwise from seat "
              "1, e.g. [\"Ana\", \"Bob\", \"Cy\"], or a number of seats from 2 to 6"),
    "layout_table": ("écrivez [game.layout] comme une table, ou retirez-le",
                     "write [game.layout] as a table, or leave it out"),
    "seats_for": ("{game} se joue à {players} : nommez autant de places",
                  "{game} is for {players}: name that many seats"),
    "path": ("{why} ; {fix}", "{why}; {fix}"),
    "spi_rst": ("le GPIO BCM de la ligne de remise à zéro commune des lecteurs, 0 à {max}",
                "the BCM GPIO of the readers' shared reset line, 0 to {max}"),
    "spi_needs": ("{name} : readers.kind = \"spi\" demande readers.spi_spots et "
                  "readers.spi_rst (ou kind = \"pico\" pour des lecteurs sur un Pico)",
                  "{name}: readers.kind = \"spi\" needs readers.spi_spots and readers.spi_rst "
                  "(or use kind = \"pico\" for readers on a Pico)"),
    "no_pins": ("{name} : paths.pins n’est pas donné et aucun pins.toml n’a été trouvé : "
                "donnez à paths.pins le plan des broches (par exemple "
                "\"/etc/companion/pins.toml\"), ou mettez controls.enabled = false",
                "{name}: paths.pins is not set and no pins.toml was found: set paths.pins to "
                "the pin map (e.g. \"/etc/companion/pins.toml\"), or set controls.enabled = "
                "false"),
    # [club]
    "broker": ("l’adresse du broker, \"HÔTE\" ou \"HÔTE:PORT\" (par exemple "
               "\"club-pi.local\" ; port {tls_port} par défaut, {plain_port} avec tls = false)",
               "the broker's address, \"HOST\" or \"HOST:PORT\" (e.g. \"club-pi.local\"; "
               "default port {tls_port}, {plain_port} with tls = false)"),
    "fix.club_table": ("le nom de la table au tableau du club : lettres minuscules, chiffres, "
                   "\"-\" et \"_\", 32 au plus (par exemple \"table-3\")",
                   "the table's name on the club's board: lower-case letters, digits, \"-\" "
                   "and \"_\", up to 32 (e.g. \"table-3\")"),
    "missing": ("{name} : {key} : manquant ({fix})", "{name}: {key}: missing ({fix})"),
    "ca_without_tls": ("une AC est pour TLS, et tls = false : retirez l’une des deux",
                       "a CA is for TLS, and tls = false: remove one"),
    "plain_port": ("le port {plain_port} est celui de MQTT en clair, et une table parle TLS "
                   "sauf avis contraire : donnez le port TLS du broker ({tls_port}, par "
                   "défaut), ou ajoutez tls = false pour un broker sur un réseau fermé "
                   "(docs/club.md)",
                   "port {plain_port} is plain MQTT's, and a table speaks TLS unless told: "
                   "give the broker's TLS port ({tls_port}, the default), or add tls = false "
                   "for a broker on a closed network (docs/club.md)"),
    "no_ca": ("pas de tel fichier ({path}) : le certificat de l’AC du broker (PEM)",
              "no such file ({path}): the broker's CA certificate (PEM)"),
    # the pin map
    "pins_unreadable": ("{name} : impossible de lire le plan des broches : {why}",
                        "{name}: cannot read the pin map: {why}"),
    "pi_table": ("{name} : pi = {shown} : doit être une table : les broches du Pi vont dans "
                 "[pi.seats], [pi.console], [pi.encoder] et [pi.oled] (voir "
                 "hardware/pins.toml)",
                 "{name}: pi = {shown}: must be a table: the Pi's pins go in [pi.seats], "
                 "[pi.console], [pi.encoder] and [pi.oled] (see hardware/pins.toml)"),
    "pi_unknown": ("{name} : {key} : clé inconnue (les clés connues ici : {known} ; voir "
                   "hardware/pins.toml)",
                   "{name}: {key}: unknown key (known keys here: {known}; see "
                   "hardware/pins.toml)"),
    "pi_section": ("{name} : pi.{section} = {shown} : doit être une table : écrivez "
                   "[pi.{section}] seul sur sa ligne, ses clés en dessous (voir "
                   "hardware/pins.toml)",
                   "{name}: pi.{section} = {shown}: must be a table: write [pi.{section}] on "
                   "a line of its own, its keys below it (see hardware/pins.toml)"),
    "gpio": ("un numéro de GPIO BCM de 0 à {max} (pas un numéro de broche du connecteur)",
             "a BCM GPIO number from 0 to {max} (not a physical header pin number)"),
    "gpios": ("une liste de {many} numéros de GPIO BCM (0 à {max})",
              "a list of {many} BCM GPIO numbers (0 to {max})"),
    "gpio_range": ("{low} à {high}", "{low} to {high}"),
    "pin_missing": ("{name} : {key} manque : donnez {fix}", "{name}: {key} is missing: give {fix}"),
    "pin_bad": ("{name} : {key} = {shown} : doit être {fix}",
                "{name}: {key} = {shown}: must be {fix}"),
    "seat_buttons": ("{name} : pi.seats.{button} ({label}) a des broches pour {have} places "
                     "mais la partie en a {seats} : ajoutez des broches à pi.seats.{button}, "
                     "ou faites asseoir moins de joueurs",
                     "{name}: pi.seats.{button} ({label}) has pins for {have} seats but the "
                     "game has {seats}: add pins to pi.seats.{button}, or seat fewer players"),
    "pin_clash": ("{name} : {what} = {pin} : le GPIO {pin} est déjà {taken} ; câblez ce bouton "
                  "sur un GPIO libre et changez le numéro",
                  "{name}: {what} = {pin}: GPIO {pin} is already {taken}; wire this button "
                  "to a free GPIO and change the number"),
    "use.seat": ("pi.seats.{name}[{i}] ({label} de la place {n})",
                 "pi.seats.{name}[{i}] (seat {n} {label})"),
    "use.announce": ("pi.console.announce[{i}] (bouton d’annonce {n})",
                     "pi.console.announce[{i}] (announce button {n})"),
    "use.back": ("pi.console.back (bouton retour)", "pi.console.back (back button)"),
    "taken.sda": ("le SDA I2C de l’OLED (pi.oled.sda)", "the OLED's I2C SDA (pi.oled.sda)"),
    "taken.scl": ("le SCL I2C de l’OLED (pi.oled.scl)", "the OLED's I2C SCL (pi.oled.scl)"),
    "taken.spi": ("{what} (lecteurs sur le SPI du Pi)", "{what} (readers on the Pi's SPI)"),
    "taken.rst": ("readers.spi_rst (la ligne de remise à zéro des lecteurs)",
                  "readers.spi_rst (the readers' reset line)"),
    # the data directory
    "nul": ("il contient un octet NUL (\\u0000), ce qu’aucun chemin ne peut : retirez-le",
            "it holds a NUL byte (\\u0000), which no path may: remove it"),
    "no_user": ("il n’y a pas d’utilisateur {user} pour développer ~{user} : écrivez le "
                "chemin entier",
                "there is no user called {user} to expand ~{user}: write the whole path"),
    "no_home": ("il n’y a pas de dossier personnel pour cet utilisateur pour développer ~ : "
                "écrivez le chemin entier",
                "there is no home directory for this user to expand ~: write the whole "
                "path"),
    "origin.default": ("la valeur par défaut sans fichier de configuration",
                       "the default without a config file"),
    "origin.config": ("paths.data_dir de {source}", "paths.data_dir of {source}"),
    "data_dir": ("dossier de données ({origin}) : {why}", "data directory ({origin}): {why}"),
    "is_file": ("{path} est un fichier, pas un dossier : donnez un dossier",
                "{path} is a file, not a directory: give a directory"),
    "parent_file": ("{path} ne peut être créé : {folder} est un fichier, pas un dossier : "
                    "donnez un dossier",
                    "{path} cannot be created: {folder} is a file, not a directory: give a "
                    "directory"),
    "unwritable": ("{path} n’est pas modifiable par cet utilisateur",
                   "{path} is not writable by this user"),
    "uncreatable": ("{path} n’existe pas et cet utilisateur ne peut pas le créer dans "
                    "{folder}",
                    "{path} does not exist and this user may not create it in {folder}"),
    # `companion config check`'s summary
    "sum.config": ("configuration : {source}", "config: {source}"),
    "sum.defaults": ("les valeurs par défaut (aucun fichier trouvé)",
                     "built-in defaults (no file found)"),
    "sum.game": ("jeu : {name}, {parts}", "game: {name}, {parts}"),
    "sum.seats": ("{n} places ({names})", "{n} seats ({names})"),
    "sum.first": ("premier joueur {n}", "first player {n}"),
    "sum.settle": ("immobilité {seconds:g} s", "settle {seconds:g} s"),
    "sum.language": ("langue {lang}", "language {lang}"),
    "sum.data": ("dossier de données : {path} (d’après {origin})",
                 "data directory: {path} (from {origin})"),
    "sum.oled": ("écran : {driver} sur le bus I2C {bus} à 0x{address:02X}, rotation "
                 "{rotation}, contraste {contrast}",
                 "display: {driver} on I2C bus {bus} at 0x{address:02X}, rotation {rotation}, "
                 "contrast {contrast}"),
    "sum.display": ("écran : {driver}", "display: {driver}"),
    "sum.controls": ("commandes : broches de {path}, rebond {bounce} ms, appui long {long} ms",
                     "controls: pins from {path}, bounce {bounce} ms, long press {long} ms"),
    "sum.no_controls": ("commandes : aucune", "controls: none"),
    "sum.pico": ("lecteurs : Pico sur {port}", "readers: Pico on {port}"),
    "sum.spi": ("lecteurs : {n} sur le SPI", "readers: {n} on SPI"),
    "sum.no_readers": ("lecteurs : aucun", "readers: none"),
    "sum.no_hardware": ("aucun matériel configuré : `companion run` simulera la table",
                        "no hardware configured: `companion run` will simulate the table"),
    "sum.silent": ("son : aucun (la table est muette)", "sound: none (the table is silent)"),
    "sum.sound": ("son : {backend}, volume {volume}, débit {rate} mots par minute, voix "
                  "{voice_fr} (fr) et {voice_en} (en), {interrupt}",
                  "sound: {backend}, volume {volume}, rate {rate} words a minute, voices "
                  "{voice_fr} (fr) and {voice_en} (en), {interrupt}"),
    "sum.cuts": ("une phrase plus récente coupe", "a newer sentence cuts"),
    "sum.whole": ("une phrase est dite entière", "a sentence is said whole"),
    "sum.no_espeak": ("{line} ; espeak-ng n’est pas installé ici (sudo apt-get install "
                      "espeak-ng)",
                      "{line}; espeak-ng is not installed here (sudo apt-get install "
                      "espeak-ng)"),
    "sum.club": ("club : la table {table} publie vers {host}:{port} en tant que "
                 "{username}{tls}",
                 "club: table {table} publishes to {host}:{port} as user {username}{tls}"),
    "sum.plain": (", MQTT en clair sans TLS (tls = false : un réseau fermé seulement)",
                  ", plain MQTT without TLS (tls = false: a closed network only)"),
    "sum.ca": (", TLS avec l’AC {ca}", ", TLS with CA {ca}"),
    "sum.system_ca": (", TLS vérifié avec les AC du système (pas de tls_ca)",
                      ", TLS checked against the system's CAs (no tls_ca)"),
    "sum.network": ("réseau du service : {uses}", "service network: {uses}"),
    "sum.no_network": ("réseau du service : aucun (ni page web, ni club)",
                       "service network: none (no web page, no club)"),
    "sum.page": ("la page sur {address} ({who})", "the page on {address} ({who})"),
    "sum.pi_alone": ("le Pi seul", "the Pi alone"),
    "sum.pi_network": ("le Pi et le réseau de la table", "the Pi and the table's network"),
    "sum.broker": ("le broker du club {broker} (sortant, {tls})",
                   "the club broker {broker} (outgoing, {tls})"),
    "sum.broker_name": ("le broker du club {broker} (sortant, {tls} ; un nom : toute adresse "
                        "du réseau de la table)",
                        "the club broker {broker} (outgoing, {tls}; a name: any address of "
                        "the table's network)"),
    "sum.tls": ("TLS", "TLS"),
    "sum.plain_mqtt": ("MQTT en clair", "plain MQTT"),
}  # fmt: skip
"""The configuration's words under ``cli.cfg.``, each (French, English)."""

BOOK = Book(PREFIX, WORDS)
"""The configuration's book (`companion.cli_words.books`)."""
