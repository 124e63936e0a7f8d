// An emulated Raspberry Pi Pico for tests/pico/pico_board.py: rp2040js runs the RP2040's
// bootrom and MicroPython's UF2 on both cores (dualcore.mjs), with the littlefs image of
// firmware/ in its flash, and everything the firmware touches outside the chip goes to
// the Python side over two pipes:
//
//   node tests/pico/board.mjs <bootrom.bin> <micropython.uf2> <littlefs.img> <pin,pin,...>
//        <out fd> <in fd> [<XIP miss cycles>]
//
// The first fd carries lines to Python, the second Python's answers (blocking reads: the
// emulator stands still while Python answers, so emulated time never depends on the host):
//
//   X <ns> <bus> <byte>   a byte clocked out on SPI <bus>; answer: the byte on MISO
//   G <ns> <pin> <0|1>    a watched GPIO changed level (chip selects, the readers' reset)
//   U <ns> <hex>          bytes the board sent over USB CDC
//   C <ns>                the USB host (us) has configured the board's CDC
//   W <ns>                the watchdog fired: the board restarts (same flash, a fresh chip)
//   P <ns> <idle> <instructions of core 0> <of core 1> <XIP misses>
//                         a poll, every 0.2 ms of emulated time; answer: "-" (nothing),
//                         "I <hex>" (bytes from the USB host), "K <core> <0|1>" (stall a
//                         core, or let it go on: a wedged core, for tests), or "Q" (stop)
//
// <ns> is emulated time in nanoseconds, counted per instruction at 125 MHz and continued
// across a watchdog restart. An SPI byte takes its bits' time at the bus's own clock; the
// answer is asked for when the byte has gone out, as a real MISO line holds it then. With
// <XIP miss cycles> above 0, each flash access that misses the XIP cache model stalls its
// core that many cycles (dualcore.mjs).
import fs from 'node:fs';
import { ConsoleLogger, LogLevel, USBCDC } from 'rp2040js';
import { DualCoreRP2040 } from './dualcore.mjs';

const [bootromPath, uf2Path, imagePath, watched, outFd, inFd, xip] = process.argv.slice(2);
const FLASH_BASE = 0x10000000;
const FS_OFFSET = 0xa0000; // MicroPython's littlefs on the RPI_PICO board
const WATCHDOG_BASE = 0x40058;
const POLL_NS = 200000; // emulated time between two polls
const XIP_MISS_CYCLES = Number(xip || 0);
const OUT_FD = Number(outFd);
const IN_FD = Number(inFd);

const bootrom = fs.readFileSync(bootromPath);
const uf2 = fs.readFileSync(uf2Path);
const image = fs.readFileSync(imagePath);
const pins = watched ? watched.split(',').map(Number) : [];

// ---- the pipes ------------------------------------------------------------------------------
const inBuf = Buffer.alloc(4096);
let pending = '';

function send(line) {
  const data = Buffer.from(line + '\n');
  let done = 0;
  while (done < data.length) {
    done += fs.writeSync(OUT_FD, data, done);
  }
}

function answer() {
  for (;;) {
    const end = pending.indexOf('\n');
    if (end >= 0) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      return line;
    }
    const n = fs.readSync(IN_FD, inBuf, 0, inBuf.length, null);
    if (n === 0) {
      process.exit(0); // Python has gone
    }
    pending += inBuf.toString('latin1', 0, n);
  }
}

// ---- one power-up of the board ----------------------------------------------------------------
let offset = 0; // emulated ns before the last restart
let board = null;

function boot() {
  const mcu = new DualCoreRP2040();
  const clock = mcu.clock;
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.loadBootrom(new Uint32Array(bootrom.buffer, bootrom.byteOffset, bootrom.length / 4));
  for (let at = 0; at + 512 <= uf2.length; at += 512) {
    const block = uf2.subarray(at, at + 512);
    const size = block.readUInt32LE(16);
    mcu.flash.set(block.subarray(32, 32 + size), block.readUInt32LE(12) - FLASH_BASE);
  }
  mcu.flash.set(image, FS_OFFSET);
  mcu.cores[0].PC = FLASH_BASE; // core 1 waits in the bootrom for core 0 to launch it
  mcu.useXipCache(XIP_MISS_CYCLES);
  const now = () => offset + clock.nanos;
  const state = { mcu, now, restart: false, host: [] };

  mcu.spi.forEach((spi, bus) => {
    let byte = 0;
    const done = clock.createAlarm(() => {
      send(`X ${now()} ${bus} ${byte}`);
      spi.completeTransmit(Number(answer()));
    });
    spi.onTransmit = (value) => {
      byte = value;
      const hz = spi.clockFrequency || 1e6;
      done.schedule(Math.round((spi.dataBits * 1e9) / hz));
    };
  });

  for (const pin of pins) {
    let level = 1; // a pin not driven yet reads high (the chip selects' pull-ups)
    mcu.gpio[pin].addListener((value) => {
      const next = value === 0 ? 0 : 1; // GPIOPinState.Low is 0: anything else is high
      if (next !== level) {
        level = next;
        send(`G ${now()} ${pin} ${level}`);
      }
    });
  }

  // The host of a real USB bus sends an OUT packet only when it has data; rp2040js's CDC
  // answers every read at once, with nothing, which floods the board with USB interrupts
  // (two thirds of its time). Reads wait here until the host has bytes.
  const cdc = new USBCDC(mcu.usbCtrl);
  const usb = mcu.usbCtrl;
  const read = usb.onEndpointRead;
  let waiting = null;
  usb.onEndpointRead = (endpoint, size) => {
    if (endpoint === cdc.outEndpoint && cdc.txFIFO.empty) {
      waiting = size;
      return;
    }
    read(endpoint, size);
  };
  state.feed = () => {
    while (state.host.length && !cdc.txFIFO.full) {
      cdc.sendSerialByte(state.host.shift());
    }
    if (waiting !== null && !cdc.txFIFO.empty) {
      const size = waiting;
      waiting = null;
      read(cdc.outEndpoint, size);
    }
  };
  cdc.onDeviceConnected = () => send(`C ${now()}`);
  cdc.onSerialData = (data) => send(`U ${now()} ${Buffer.from(data).toString('hex')}`);
  const watchdog = mcu.peripherals[WATCHDOG_BASE];
  watchdog.onWatchdogTrigger = () => {
    watchdog.alarm.enable = false; // rp2040js would fire it again at once, for ever
    send(`W ${now()}`);
    state.restart = true;
    mcu.halt();
  };
  return state;
}

// ---- the run ----------------------------------------------------------------------------------
board = boot();
for (;;) {
  const { mcu } = board;
  const clock = mcu.clock;
  mcu.run(clock.nanos + POLL_NS);
  const idle = mcu.asleep ? 1 : 0; // both cores asleep, nothing scheduled: the host must act
  if (board.restart) {
    offset += clock.nanos;
    board = boot();
    continue;
  }
  const [zero, one] = mcu.instructions;
  send(`P ${board.now()} ${idle} ${zero} ${one} ${mcu.xipMisses || 0}`);
  const reply = answer();
  if (reply === 'Q') {
    process.exit(0);
  }
  if (reply.startsWith('I ')) {
    for (const byte of Buffer.from(reply.slice(2), 'hex')) {
      board.host.push(byte);
    }
  } else if (reply.startsWith('K ')) {
    const [core, stalled] = reply.slice(2).split(' ').map(Number);
    mcu.stalled[core] = stalled === 1;
  }
  board.feed();
}
