"""What `companion enroll` and `companion doctor` say on the terminal while tokens are
tapped and readers watched, in French and English, under ``cli.enroll.say.`` and
``cli.doctor.say.`` of the command line's books (`companion.cli_words.books`), said in
the command line's language (the OLED's words are the screens')."""

from __future__ import annotations

from collections.abc import Sequence

from companion.devices import scan_model
from companion.phrasebook import Book

WORDS: dict[str, tuple[str, str]] = {
    "pad_silent": ("le lecteur du pad ne répond pas ({code}) : vérifiez son câble",
                   "the pad reader is not answering ({code}): check its cable"),
    "link_down": ("liaison des lecteurs coupée : {reason}", "reader link down: {reason}"),
    "first_report": ("d’un premier relevé du lecteur du pad", "a first report from the pad reader"),
    "a_tag": ("d’un tag sur le pad", "a tag on the pad"),
    "cleared": ("que le pad soit vidé", "the pad to be cleared"),
    "timed_out_step": ("rien après {timeout:g} s d’attente {what} à l’étape {number} "
                       "({prompt}) ; le lecteur du pad est-il branché et le tag du jeton "
                       "marche-t-il ? Essayez `companion doctor`.",
                       "timed out after {timeout:g} s waiting for {what} at step {number} "
                       "({prompt}); is the pad reader connected and the token's tag working? "
                       "Try `companion doctor`."),
    "timed_out": ("rien après {timeout:g} s d’attente {what} : {why} Essayez "
                  "`companion doctor`.",
                  "timed out after {timeout:g} s waiting for {what}: {why} Try "
                  "`companion doctor`."),
    "link_why": ("{reason}.", "{reason}."),
    "firmware": ("le Pico fait-il tourner le firmware (firmware/README.md) ?",
                 "is the Pico running the firmware (firmware/README.md)?"),
    "done": ("fini : {n} tag(s) enregistré(s) dans {path}",
             "done: {n} tag(s) enrolled in {path}"),
    "clear": ("retirez tous les jetons du pad", "take every token off the pad"),
    "step": ("[{number}/{total}] {prompt}", "[{number}/{total}] {prompt}"),
    "several": ("{n} tags à la fois sur le pad ({uids}) : laissez un seul jeton sur le pad",
                "{n} tags at once on the pad ({uids}): leave exactly one token on the pad"),
    "refused": ("refusé : {why}", "refused: {why}"),
    "recorded": ("{uid} enregistré comme {kind} ; retirez-le du pad",
                 "recorded {uid} as {kind}; take it off the pad"),
    "of": ("({n} sur {total})", "({n} of {total})"),
    "tap_shared": ("posez {what} {count} sur le pad", "tap {what} {count} on the pad"),
    "tap_seat": ("posez {name}{count} de la place {seat} sur le pad",
                 "tap seat {seat}'s {name}{count} on the pad"),
    "tap_kind": ("posez un jeton {kind}{count} sur le pad", "tap a {kind} token{count} on the pad"),
    "too_many": ("{total} jetons demandés : {max} au plus en une séance",
                 "{total} tokens asked: at most {max} in one session"),
    "count_fix": ("{spec} : écrivez SORTE*N avec N un nombre entier de 1 à {max}, par exemple "
                  "{kind}*6",
                  "{spec}: write KIND*N with N a whole number from 1 to {max}, e.g. {kind}*6"),
    "spi_rst": ("--spi demande --rst (le GPIO BCM câblé au RST des lecteurs)",
                "--spi needs --rst (the BCM GPIO wired to the readers' RST)"),
    "no_pico_port": ("{problem} ; ou donnez --port PÉRIPHÉRIQUE (--spi : un lecteur sur le Pi)",
                     "{problem}; or give --port DEVICE (--spi: a reader on the Pi)"),
    "seats": ("--seats {seats} : {game} se joue à {players}",
              "--seats {seats}: {game} is for {players}"),
    "bad_config": ("configuration invalide : {first}{more} ; voir `companion config check`",
                   "invalid configuration: {first}{more}; see `companion config check`"),
    "more": (" (et {n} de plus)", " (and {n} more)"),
    "cannot_read": ("impossible de lire les tags de {path} : {why}",
                    "cannot read the tags in {path}: {why}"),
    "cannot_write": ("impossible d’écrire {path} : {why}", "cannot write {path}: {why}"),
    "forgot": ("{uid} oublié ({kind})", "forgot {uid} ({kind})"),
    "no_tag": ("--forget : pas de tag {uid} dans {path}", "--forget: no such tag {uid} in {path}"),
    "nothing": ("rien à enregistrer : donnez --game et --seats, ou des sortes de jetons",
                "nothing to enrol: give --game and --seats, or token kinds"),
    "tags_go": ("les tags vont dans {path}", "tags go to {path}"),
    "duplicate": ("le tag {uid} est déjà enregistré comme {kind} dans {path} ; prenez un autre "
                  "jeton, ou oubliez d’abord ce tag (companion enroll --forget {uid})",
                  "tag {uid} is already enrolled as {kind} in {path}; use another token, or "
                  "forget this tag first (companion enroll --forget {uid})"),
    "unknown_kind": ("sorte de jeton inconnue {kind} : les sortes des jeux sont {known}",
                     "unknown token kind {kind}: the games' kinds are {known}"),
}  # fmt: skip
"""What `companion enroll` says, each (French, English), under ``cli.enroll.say.``."""

ENROLL_SAYS = Book("cli.enroll.say.", WORDS)
"""Enrolment's book (`companion.cli_words.books`)."""


def say(name: str, /, **fields: object) -> str:
    """`companion enroll`'s phrase ``name`` in the command line's language."""
    return ENROLL_SAYS.say(name, **fields)


DOCTOR: dict[str, tuple[str, str]] = {
    "pad": ("pad", "pad"),
    "spot": ("case {n}", "spot {n}"),
    "several": ("plusieurs Pico trouvés : {found} ; j’utilise {port}",
                "several Picos found: {found}; using {port}"),
    "pico": ("Pico : {port}", "Pico: {port}"),
    "settle": ("l’attente d’alimentation des tags : settle_us = {us} µs",
               "the tags' power-up wait: settle_us = {us} µs"),
    "link": ("  liaison : {reason}", "  link: {reason}"),
    "empty": ("vide", "empty"),
    "live": ("  {reader} : {tags}", "  {reader}: {tags}"),
    "live_fault": ("  {reader} : PANNE {code}", "  {reader}: FAULT {code}"),
    "button": ("  bouton {name} {state}", "  button {name} {state}"),
    "down": ("enfoncé", "down"),
    "up": ("relâché", "up"),
    "no_answer": ("pas de réponse", "no answer"),
    "busy": (" (le service companion l’utilise-t-il ? sudo systemctl stop companion)",
             " (is the companion service using it? sudo systemctl stop companion)"),
    "cannot_talk": ("impossible de parler au Pico : {reason}{hint}",
                    "cannot talk to the Pico: {reason}{hint}"),
    "restarting": ("redémarrage du Pico pour lire son HELLO (REPL, Ctrl-C, Ctrl-D)...",
                   "soft-restarting the Pico to read its HELLO (REPL, Ctrl-C, Ctrl-D)..."),
    "firmware": ("firmware {firmware}, protocole {proto}, {readers} lecteurs",
                 "firmware {firmware}, protocol {proto}, {readers} readers"),
    "no_hello": ("version du firmware inconnue (pas de HELLO), {count} lecteurs dans le relevé",
                 "firmware version unknown (no HELLO), {count} readers in the snapshot"),
    "pong": ("PING : PONG en {ms:.0f} ms", "PING: PONG in {ms:.0f} ms"),
    "no_pong": ("PING : pas de PONG", "PING: no PONG"),
    "watching": ("surveillance des lecteurs pendant {seconds:g} s (posez-y des tags pour les "
                 "tester) :",
                 "watching the readers for {seconds:g} s (put tags on them to test):"),
    "summary": ("bilan :", "summary:"),
    "missing": ("  {reader} : ABSENT (le Pico a {count} lecteurs)",
                "  {reader}: MISSING (the Pico has {count} readers)"),
    "fault": ("  {reader} : PANNE {code} ({hint})", "  {reader}: FAULT {code} ({hint})"),
    "silent": ("  {reader} : MUET (aucun relevé en {seconds:g} s)",
               "  {reader}: SILENT (no report in {seconds:g} s)"),
    "ok": ("  {reader} : ok, {n} tag(s) {tags}", "  {reader}: ok, {n} tag(s) {tags}"),
    "frames": ("liaison : {frames} trames, {crc} CRC faux, {malformed} mal formées, {gaps} "
               "trous de séquence",
               "link: {frames} frames, {crc} bad CRC, {malformed} malformed, {gaps} "
               "sequence gaps"),
    "noisy": ("  (câble bruité ?)", "  (noisy cable?)"),
    "lost": ("liaison perdue pendant la surveillance", "link lost during the watch"),
    "no_snapshot": ("le Pico n’a envoyé aucun relevé en {seconds:g} s (son battement est de "
                    "1 s) : scanne-t-il ?",
                    "the Pico sent no snapshot in {seconds:g} s (its heartbeat is 1 s): is it "
                    "scanning?"),
    "healthy": ("en bonne santé", "healthy"),
    "unhealthy": ("PAS en bonne santé", "NOT healthy"),
    "not_enrolled": ("pas enregistré", "not enrolled"),
    "tags": ("tags : {why}", "tags: {why}"),
    "data": ("dossier de données : {path} (d’après {origin}), {n} tag(s) enregistré(s)",
             "data directory: {path} (from {origin}), {n} tag(s) enrolled"),
    "no_pico": ("aucun Pico trouvé sur l’USB (fabricant {vid:04X}, produit MicroPython "
                "{pid:04X}) : vérifiez le câble (un câble de charge seule ne montre rien) et "
                "que MicroPython et firmware/ sont flashés (firmware/README.md)",
                "no Pico found on USB (vendor {vid:04X}, MicroPython product {pid:04X}): check "
                "the cable (a charge-only cable shows nothing) and that MicroPython and "
                "firmware/ are flashed (firmware/README.md)"),
    "hint": ("vérifiez son câblage et sa ligne CS", "check its wiring and CS line"),
    "stalled": ("le cœur 1, qui scanne le bus SPI de ce lecteur, ne répond plus : l’autre bus "
                "est toujours lu ; débranchez le Pico et rebranchez-le, et signalez-le si cela "
                "se reproduit",
                "core 1, which scans this reader's SPI bus, stopped answering: the other bus "
                "is still read; unplug the Pico and plug it in again, and report it if it "
                "recurs"),
    "crashed": ("le cœur 1, qui scanne le bus SPI de ce lecteur, a levé une erreur : l’autre "
                "bus est toujours lu ; débranchez le Pico et rebranchez-le, et signalez-le si "
                "cela se reproduit",
                "core 1, which scans this reader's SPI bus, raised an error: the other bus is "
                "still read; unplug the Pico and plug it in again, and report it if it recurs"),
    "across": ("un tag est à cheval sur cette case et {other}, les deux lecteurs le lisent : "
               "posez-le sur l’une des deux",
               "one tag lies across this spot and {other}, both readers read it: put it on "
               "one of them"),
    "bad_config": ("configuration invalide (voir plus haut ; companion config check)",
                   "invalid configuration (see above; companion config check)"),
    "config": ("configuration : {problem}", "config: {problem}"),
    "display_none": ("écran : aucun configuré", "display: none configured"),
    "display_ok": ("écran : {driver}{where} ok (une image de test s’y affiche)",
                   "display: {driver}{where} ok (a test frame is on it)"),
    "display_where": (" sur le bus I2C {bus} à l’adresse 0x{address:02X}",
                      " on I2C bus {bus} at 0x{address:02X}"),
    "display_failed": ("écran {driver}{where} : {error}", "display {driver}{where}: {error}"),
    "display_os": ("{why} : {path}", "{why}: {path}"),
    "display_no_answer": ("rien ne répond à cette adresse", "nothing answers at that address"),
    "display_hint": ("{failed} ({hint})", "{failed} ({hint})"),
    "display_enable_i2c": ("activez l’I2C (sudo raspi-config nonint do_i2c 0) et redémarrez",
                           "enable I2C (sudo raspi-config nonint do_i2c 0) and reboot"),
    "display_i2c_group": ("l’utilisateur du service doit être dans le groupe i2c",
                          "the service user must be in the i2c group"),
    "display_wiring": ("vérifiez le câblage (SDA 2, SCL 3, 3,3 V, GND) et l’adresse "
                       "(i2cdetect -y 1)",
                       "check the wiring (SDA 2, SCL 3, 3.3 V, GND) and the address "
                       "(i2cdetect -y 1)"),
    "sound_off": ("son : {backend}", "sound: {backend}"),
    "volume_0": ("volume 0", "volume 0"),
    "sound_capture": ("son : capture (journalisé, jamais joué)",
                      "sound: capture (logged, never played)"),
    "sound_missing": ("son : {missing}", "sound: {missing}"),
    "sound_problem": ("son : {problem} (docs/install.md, la section sur la voix de la table)",
                      "sound: {problem} (docs/install.md, \"The table's voice\")"),
    "sound_ok": ("son : espeak-ng, voix {voice}, volume {volume} : « {said} »",
                 "sound: espeak-ng, voice {voice}, volume {volume}: \"{said}\""),
}  # fmt: skip
"""What `companion doctor` says, each (French, English), under ``cli.doctor.say.``."""

TIMINGS: dict[str, tuple[str, str]] = {
    "timings_refused": ("temps du scan : ce firmware ne se chronomètre pas (mettez-le à jour : "
                        "firmware/README.md)",
                        "scan timings: this firmware does not time itself (update it: "
                        "firmware/README.md)"),
    "timings_none": ("temps du scan : aucun reçu en {seconds:.1f} s",
                     "scan timings: none received in {seconds:.1f} s"),
    "cycle": ("cycle de scan : min {low:.1f} / médiane {median:.1f} / max {high:.1f} ms sur "
              "les {cycles} derniers cycles",
              "scan cycle: min {low:.1f} / median {median:.1f} / max {high:.1f} ms over the "
              "last {cycles} cycles"),
    "visit_untimed": ("visite d’un lecteur : pas chronométrée par ce firmware",
                      "reader visit: not timed by this firmware"),
    "visit": ("visite d’un lecteur : min {low:.2f} / médiane {median:.2f} / max {high:.2f} ms "
              "sur les {visits} dernières visites",
              "reader visit: min {low:.2f} / median {median:.2f} / max {high:.2f} ms over the "
              "last {visits} visits"),
    "model": ("modèle : {model:.1f} ms par cycle pour {readers} lecteurs portant {tags} tag(s) "
              "{buses} (bench/scan_cycle.py, MicroPython compté aux coûts du RP2040 mesurés "
              "sur les deux cœurs de la puce émulée, bench/pico_cycle.py)",
              "model: {model:.1f} ms per cycle for {readers} readers holding {tags} tag(s) "
              "{buses} (bench/scan_cycle.py, MicroPython charged at the RP2040's costs fitted "
              "on both cores of the emulated chip, bench/pico_cycle.py)"),
    "one_bus": ("sur un bus SPI", "on one SPI bus"),
    "two_buses": ("sur deux bus SPI, un cœur chacun", "on two SPI buses, one core each"),
    "slower": ("plus lent que son modèle : le cycle médian de {median:.1f} ms fait {ratio:.1f} "
               "fois les {model:.1f} ms modélisées (plus de {factor:g} fois)",
               "slower than its model: median cycle {median:.1f} ms is {ratio:.1f}x the "
               "modelled {model:.1f} ms (more than {factor:g}x)"),
    "within": ("dans son modèle : le cycle médian fait {ratio:.2f} fois celui du modèle",
               "within its model: median cycle {ratio:.2f}x the modelled one"),
    "crowded": ("le SPI{bus} porte {count} lecteurs, plus que les {most} qu’un bus scanne à "
                "temps : avec deux chapeaux de trois jetons dessus, un cycle de scan peut "
                "prendre {worst:.0f} ms, au-delà des {target:g} ms qu’une table doit tenir ; "
                "{where} (pico.readers.spi1 dans pins.toml ; hardware/wiring.md, Two buses) : "
                "un bus porte au plus {most} lecteurs",
                "SPI{bus} carries {count} readers, more than the {most} one bus scans in time: "
                "with two hats of three tokens on it a scan cycle can take {worst:.0f} ms, past "
                "the {target:g} ms a table is meant to keep to; {where} (pico.readers.spi1 in "
                "pins.toml; hardware/wiring.md, Two buses): a bus supports at most {most} "
                "readers"),
    "crowded_half": ("câblez-en la moitié sur le SPI1", "wire half of them to SPI1"),
    "crowded_other": ("câblez-en une partie sur l’autre bus", "wire some to the other bus"),
    "no_interpreter": ("interpréteur : pas mesurable, le cycle médian n’est pas plus long que "
                       "le seul temps d’antenne et de SPI du modèle ({air:.1f} ms, pour des tags "
                       "de 7 octets, settle_us {settle} µs et la minuterie 300 µs)",
                       "interpreter: not measurable, the median cycle is no longer than the "
                       "model's air and SPI time alone ({air:.1f} ms, for 7-byte tags, "
                       "settle_us {settle} µs and the timer 300 µs)"),
    "interpreter": ("interpréteur : ce Pico passe environ {scale:.2f} fois le temps MicroPython "
                    "du RP2040 émulé (1,00 fois sans défaut de cache de la flash, {bound:.2f} "
                    "fois avec le majorant des défauts du modèle de cache)",
                    "interpreter: this Pico spends about x{scale:.2f} the MicroPython time of "
                    "the emulated RP2040 (x1.00 with no flash cache miss, x{bound:.2f} with the "
                    "cache model's upper bound of misses)"),
}  # fmt: skip
"""The doctor's lines on the firmware's own timings against the bench's model of the same
table (`companion.devices.scan_model`), under ``cli.doctor.say.``."""

SEARCH: dict[str, tuple[str, str]] = {
    "settle_start": ("recherche du plus court temps d’éveil qui lit chaque tag {cycles} cycles "
                     "de suite (ne touchez pas aux tags) :",
                     "finding the lowest power-up wait that reads every tag {cycles} cycles in "
                     "a row (keep the tags still):"),
    "settle_not_taken": ("temps d’éveil : le Pico n’a pas pris les réglages de la recherche "
                         "({why})",
                         "power-up wait: the Pico did not take the search's settings ({why})"),
    "settle_stopped": ("  settle_us {us} : {why} ; recherche arrêtée",
                       "  settle_us {us}: {why}; search stopped"),
    "settle_no_tag": ("  aucun lecteur ne porte de tag : posez un tag sur chaque case et "
                      "recommencez",
                      "  no reader holds a tag: put a tag on every spot and try again"),
    "settle_untested": ("  pas testé, sans tag : {readers}", "  not tested, no tag: {readers}"),
    "settle_missed": ("  settle_us {us} : manqué sur {readers}",
                      "  settle_us {us}: missed on {readers}"),
    "settle_none": ("aucun temps d’éveil ne lit chaque tag : vérifiez ces lecteurs et ces tags",
                    "no power-up wait reads every tag: check those readers and tags"),
    "settle_read": ("  settle_us {us} : chaque tag lu", "  settle_us {us}: every tag read"),
    "settle_found": ("plus court temps d’éveil qui a lu chaque tag : {lowest} µs ; conseillé : "
                     "{recommended} µs, le double (actuellement {now} µs)",
                     "lowest power-up wait that read every tag: {lowest} µs; recommended: "
                     "{recommended} µs, twice that (now {now} µs)"),
    "settle_lost": ("liaison perdue", "link lost"),
    "settle_lost_why": ("liaison perdue : {reason}", "link lost: {reason}"),
    "settle_no_answer": ("pas de réponse en {timeout:g} s", "no answer in {timeout:g} s"),
    "settle_refused": ("settle_us : refusé par le Pico (hors de sa plage, ou un firmware plus "
                       "ancien)",
                       "settle_us: refused by the Pico (out of its range, or an older "
                       "firmware)"),
    "put_settle": ("mettez settle_us = {us} dans [readers] de la configuration, ou laissez "
                   "companion doctor --walk l’enregistrer dans le profil de la table",
                   "put settle_us = {us} in [readers] of the config, or let companion doctor "
                   "--walk record it in the table profile"),
}  # fmt: skip
"""What the search for the tags' lowest power-up wait says (``doctor --find-settle``, the
walk's last step: `companion.devices.settle`), under ``cli.doctor.say.``."""

DOCTOR_SAYS = Book("cli.doctor.say.", DOCTOR | TIMINGS | SEARCH)
"""The doctor's book (`companion.cli_words.books`)."""


def doctor_says(name: str, /, **fields: object) -> str:
    """`companion doctor`'s phrase ``name`` in the command line's language."""
    return DOCTOR_SAYS.say(name, **fields)


def crowded_buses(buses: Sequence[int], settle_us: int = scan_model.BENCH_SETTLE_US) -> list[str]:
    """What to tell the builder of a table whose readers are on ``buses`` (each reader's
    SPI bus, 0 or 1): a line for each bus carrying more readers than one bus scans in time
    (`scan_model.crowded`), in the command line's language."""
    where = doctor_says("crowded_half" if len(set(buses)) == 1 else "crowded_other")
    return [
        doctor_says("crowded", bus=bus, count=count, most=most, worst=worst,
             target=scan_model.HATS_TARGET_MS, where=where)
        for bus, count, most, worst in scan_model.crowded(buses, settle_us)
    ]  # fmt: skip


WALK: dict[str, tuple[str, str]] = {
    "lost_link": ("  liaison avec le Pico perdue : {reason} (reconnexion)",
                  "  link to the Pico lost: {reason} (reconnecting)"),
    "absent": ("  {reader} est absent : attente de {wait:g} s seulement",
               "  {reader} is absent: waiting {wait:g} s only"),
    "nothing": ("  rien lu en {wait:g} s", "  nothing read in {wait:g} s"),
    "sharing": ("  {both} le lisent tous deux (le Pico les dit partager un même tag)",
                "  {both} both read it (the Pico reports them sharing one tag)"),
    "reads": ("  {reader} lit {token}", "  {reader} reads {token}"),
    "buses": ("  ({buses})", "  ({buses})"),
    "bus": ("bus {bus} : {spots}", "bus {bus}: {spots}"),
    "no_token": ("  aucun jeton posé en {timeout:g} s : le temps d’éveil n’est pas mesuré",
                 "  no token laid in {timeout:g} s: the power-up wait is not timed"),
    "no_token_bus": ("  aucun jeton sur le bus {bus} : l’éveil de ses lecteurs n’est pas mesuré",
                     "  no token on bus {bus}: its readers' power-up is not timed"),
    "no_reader": ("aucun lecteur", "no reader"),
    "pad_reader": ("le lecteur du pad", "the pad's reader"),
    "reader": ("le lecteur {n}", "reader {n}"),
    "wires": ("connecteur J{r}, sélection de puce {cs}", "connector J{r}, chip select {cs}"),
    "dead": ("{reader} n’a jamais répondu (absent) : un lecteur mort, ou son câble, son 3,3 V "
             "ou sa tranche sur la carte ({wires})",
             "{reader} never answered (absent): a dead reader, or its cable, 3.3 V or slice on "
             "the board ({wires})"),
    "swapped": ("les lecteurs {a} et {b} sont échangés : les sélections de puce de {wires_a} "
                "et de {wires_b} sont croisées (deux câbles sur le connecteur l’un de l’autre, "
                "ou deux fils CS)",
                "readers {a} and {b} are swapped: the chip selects of {wires_a} and {wires_b} "
                "are crossed (two cables on each other's connectors, or two CS wires)"),
    "moved": ("le jeton posé sur {place} a été lu par {reader} à la place : vérifiez sur quel "
              "connecteur est branché le câble de {place} ({wires})",
              "the token on {place} was read by {reader} instead: check which connector "
              "{place}'s cable is plugged into ({wires})"),
    "across": ("{reader} lit aussi le jeton posé sur {place} : champs couplés, ou antennes "
               "trop proches (mats.md : 80 mm d’écart, tags 5 à 15 mm au-dessus)",
               "{reader} also reads the token on {place}: fields coupled, or the antennas too "
               "close (mats.md: 80 mm apart, tags 5-15 mm above)"),
    "lingered": ("{reader} signalait encore le jeton après qu’on l’a retiré de {place}",
                 "{reader} still reported the token after it was taken off {place}"),
    "drops": ("a perdu le jeton {n} fois pendant qu’il reposait",
              "lost the token {n} time(s) while it rested"),
    "phantoms": ("a signalé {n} tag(s) que personne n’a posé(s)",
                 "reported {n} tag(s) nobody placed"),
    "signs": ("{a} ; {b}", "{a}; {b}"),
    "recovered": ("a failli {faults} fois et s’est rétabli {recoveries} fois",
                  "failed {faults} time(s) and recovered {recoveries}"),
    "unreliable": ("{reader} n’est pas fiable ({signs}) : une ligne MISO bruitée ou flottante, "
                   "vérifiez le tirage à la masse de 100 kohm de sa porte et le fil MISO "
                   "({wires})",
                   "{reader} is unreliable ({signs}): a noisy or floating MISO line, check its "
                   "gate's 100 kohm pull-down and the MISO wire ({wires})"),
    "no_read": ("{reader} répond mais n’a lu aucun jeton sur {place} : une ligne MISO bruitée "
                "ou flottante brouille ce qu’il lit (vérifiez le tirage à la masse de 100 kohm "
                "de sa porte et le fil MISO, {wires}), ou son antenne est trop loin du tag",
                "{reader} answers but read no token on {place}: a noisy or floating MISO line "
                "garbles what it reads (check its gate's 100 kohm pull-down and the MISO wire, "
                "{wires}), or its antenna is too far from the tag"),
    "settle_failed": ("aucun temps d’éveil n’a lu chaque jeton (la recherche ci-dessus nomme "
                      "les lecteurs qui ont manqué) : le service garde settle_us de [readers], "
                      "sinon 300 µs",
                      "no power-up wait read every token (the search above names the readers "
                      "that missed): the service keeps [readers] settle_us, else 300 µs"),
    "summary": ("bilan de la vérification :", "walk summary:"),
    "verdict": ("  {reader} : {verdict}", "  {reader}: {verdict}"),
    "read_by": (", lu par {reader}, perdu {n} fois pendant qu’il était tenu",
                ", read by {reader}, lost {n} time(s) while held"),
    "scans": ("chaque attente a duré environ {scans} scans de chaque lecteur (d’après le Pico)",
              "each hold lasted about {scans} scans of each reader (the Pico's timings)"),
    "power_up": ("éveil des tags : chaque jeton lu à {lowest} µs ; le service donnera "
                 "{recommended} µs au Pico, le double (un settle_us dans [readers] de la "
                 "configuration l’emporte)",
                 "tags' power-up: every token read at {lowest} µs; the service will give the "
                 "Pico {recommended} µs, twice that (a settle_us in [readers] of the config "
                 "wins)"),
    "finding": ("- {finding}", "- {finding}"),
    "passed": ("la table a passé la vérification", "table passed the walk"),
    "failed": ("la table n’a PAS passé la vérification", "table did NOT pass the walk"),
    "cannot_talk": ("impossible de parler au Pico (le service companion l’utilise-t-il ? sudo "
                    "systemctl stop companion)",
                    "cannot talk to the Pico (is the companion service using it? sudo "
                    "systemctl stop companion)"),
    "walking": ("vérification de {count} lecteurs sur {port}",
                "walking {count} readers on {port}"),
    "written": ("profil de la table écrit : {path}", "table profile written: {path}"),
    "verdict.ok": ("ok", "ok"),
    "verdict.dead": ("mort", "dead"),
    "verdict.swapped": ("échangé", "swapped"),
    "verdict.moved": ("déplacé", "moved"),
    "verdict.reads across": ("lit à côté", "reads across"),
    "verdict.unreliable": ("pas fiable", "unreliable"),
    "verdict.no read": ("ne lit rien", "no read"),
}  # fmt: skip
"""What `companion doctor --walk` says on the terminal, each (French, English), under
``cli.walk.say.`` (the OLED's prompts are the walk's own `PROMPTS`)."""

WALK_SAYS = Book("cli.walk.say.", WALK)
"""The walk's book (`companion.cli_words.books`)."""


def walk_says(name: str, /, **fields: object) -> str:
    """`companion doctor --walk`'s phrase ``name`` in the command line's language."""
    return WALK_SAYS.say(name, **fields)
