"""What `companion enroll` and `companion doctor` say on the terminal while tokens are
tapped and readers watched, in French and English, under ``cli.enroll.say.`` and
``cli.doctor.say.`` of the command line's catalogue (`companion.cli_words`), said in the
command line's language (the OLED's words are the screens')."""

from __future__ import annotations

from companion.cli_words import add_words, said

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

add_words({f"enroll.say.{key}": pair for key, pair in WORDS.items()})


def say(name: str, /, **fields: object) -> str:
    """`companion enroll`'s phrase ``name`` in the command line's language."""
    return said(f"cli.enroll.say.{name}", **fields)


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
}  # fmt: skip
"""What `companion doctor` says, each (French, English), under ``cli.doctor.say.``."""

add_words({f"doctor.say.{key}": pair for key, pair in DOCTOR.items()})


def doctor_says(name: str, /, **fields: object) -> str:
    """`companion doctor`'s phrase ``name`` in the command line's language."""
    return said(f"cli.doctor.say.{name}", **fields)
