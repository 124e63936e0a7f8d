"""Device ports and their back ends: readers (Pico over serial, MFRC522 on SPI), tag registry.

Nothing here imports a Raspberry Pi-only module at import time; the back ends that need
``mfrc522``, ``spidev`` or ``RPi.GPIO`` import them when they are built.
"""
