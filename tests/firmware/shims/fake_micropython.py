"""A fake ``micropython`` module for CPython (under MicroPython the real one is used)."""

kbd_intr_char = 3


def const(value):
    return value


def kbd_intr(char):
    global kbd_intr_char
    kbd_intr_char = char


def native(func):
    return func


def viper(func):
    return func


def alloc_emergency_exception_buf(size):
    pass


def schedule(func, arg):
    func(arg)


def mem_info(*args):
    pass
