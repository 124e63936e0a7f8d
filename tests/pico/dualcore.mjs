// The RP2040's second core, around rp2040js (which steps core 0 only).
//
// DualCoreRP2040 is an rp2040js RP2040 with two Cortex-M0+ cores sharing its memory, bus
// and peripherals, and what the chip gives each core of its own:
//
// - stepping: the cores run in lockstep by cycle count: the one whose clock is behind runs
//   its next instruction (core 0 on a tie, so core 0 wins a spinlock both claim on the same
//   cycle), and the shared clock (timers, SPI, USB) follows the one behind. A core asleep
//   (WFE, WFI) or held in reset is carried along by that clock, and wakes at the time of
//   what woke it: an interrupt, or an event (SEV by either core);
// - SIO: CPUID per core; the two inter-core FIFOs (8 words each way) with FIFO_ST's VLD,
//   RDY, WOF and ROE (the sticky two cleared by writing ones to them), each core's SIO IRQ
//   (SIO_IRQ_PROC0 = 15 to core 0, SIO_IRQ_PROC1 = 16 to core 1) raised while its RX FIFO
//   holds a word or a sticky flag is set; a divider and two interpolators per core; the
//   32 hardware spinlocks shared (a read claims, a write releases);
// - the private peripheral bus per core: NVIC (enables, priorities, VTOR) and SysTick;
// - interrupts: every peripheral's line reaches both NVICs (each core enables its own),
//   but for the SIO IRQs above and IO_BANK0, whose PROC0_* and PROC1_* enables give each
//   core its own GPIO interrupt;
// - core 1 from reset: it runs the bootrom's holding loop (wait_for_vector: WFE until core
//   0 sends 0, 0, 1, vector table, stack pointer, entry over the FIFO, each word echoed),
//   exactly as the SDK's multicore_launch_core1 expects; PSM FRCE_OFF.proc1 holds it in
//   reset and releasing it starts it from the bootrom again.
//
// Optionally, a model of the XIP cache (16 KB, 2-way, 8-byte lines, LRU): each flash
// access that misses stalls the core that made it `xipMissCycles`. rp2040js alone charges
// no miss at all (a lower bound); the benches charge 50 cycles a miss and take it as the
// upper bound (a line refilled over QSPI at half the system clock; the flash chip's own
// timing was not checked here), and the two cores' misses are not made to wait for each
// other.
import { RP2040 } from 'rp2040js';

const CYCLE_NS = 8; // 125 MHz
const SIO_CPUID = 0x000;
const SIO_FIFO_ST = 0x050;
const SIO_FIFO_WR = 0x054;
const SIO_FIFO_RD = 0x058;
const SIO_DIV_FIRST = 0x060;
const SIO_INTERP_LAST = 0x0fc;
const FIFO_DEPTH = 8;
const FIFO_VLD = 1;
const FIFO_RDY = 2;
const FIFO_WOF = 4;
const FIFO_ROE = 8;
const IRQ_IO_BANK0 = 13;
const IRQ_SIO_PROC = [15, 16];
const PSM_BASE = 0x40010;
const PSM_FRCE_OFF = 0x04;
const PSM_PROC1 = 1 << 16;
const IO_BANK0_BASE = 0x40014;
const IO_PROC1_INTE0 = 0x130;
const IO_PROC1_INTF0 = 0x140;
const IO_PROC1_INTS0 = 0x150;
const IO_PROC1_LAST = 0x15c;
const OP_WFE = 0xbf20;
const XIP_SETS = 1024; // 16 KB / (2 ways * 8 bytes)

/** The SIO block as two cores see it: the shared part (GPIO, spinlocks) is rp2040js's own
 * RPSIO, each core has its own divider and interpolators, and the FIFOs live here. */
class DualSIO {
  constructor(mcu) {
    this.mcu = mcu;
    this.shared = mcu.sio; // GPIO, spinlocks, and core 0's divider and interpolators
    this.own = [this.shared, new mcu.sio.constructor(mcu)];
    this.rx = [[], []]; // rx[k]: words waiting for core k
    this.sticky = [0, 0]; // WOF | ROE of each core's FIFO_ST
  }

  // GPIOPin reads these on rp2040.sio
  get gpioValue() {
    return this.shared.gpioValue;
  }
  get gpioOutputEnable() {
    return this.shared.gpioOutputEnable;
  }
  get qspiGpioValue() {
    return this.shared.qspiGpioValue;
  }
  get qspiGpioOutputEnable() {
    return this.shared.qspiGpioOutputEnable;
  }

  status(k) {
    return (
      (this.rx[k].length ? FIFO_VLD : 0) |
      (this.rx[1 - k].length < FIFO_DEPTH ? FIFO_RDY : 0) |
      this.sticky[k]
    );
  }

  /** Each core's SIO IRQ line: its RX FIFO holds a word, or a sticky flag is up. */
  updateIrq() {
    for (let k = 0; k < 2; k++) {
      this.mcu.cores[k].setInterrupt(IRQ_SIO_PROC[k], (this.status(k) & ~FIFO_RDY) !== 0);
    }
  }

  readUint32(offset) {
    const k = this.mcu.current;
    switch (offset) {
      case SIO_CPUID:
        return k;
      case SIO_FIFO_ST:
        return this.status(k);
      case SIO_FIFO_RD: {
        let word = 0;
        if (this.rx[k].length) {
          word = this.rx[k].shift();
        } else {
          this.sticky[k] |= FIFO_ROE;
        }
        this.updateIrq();
        return word;
      }
      case SIO_FIFO_WR:
        return 0;
    }
    if (offset >= SIO_DIV_FIRST && offset <= SIO_INTERP_LAST) {
      return this.own[k].readUint32(offset);
    }
    return this.shared.readUint32(offset);
  }

  writeUint32(offset, value) {
    const k = this.mcu.current;
    switch (offset) {
      case SIO_FIFO_ST:
        this.sticky[k] &= ~value;
        this.updateIrq();
        return;
      case SIO_FIFO_WR:
        if (this.rx[1 - k].length < FIFO_DEPTH) {
          this.rx[1 - k].push(value >>> 0);
        } else {
          this.sticky[k] |= FIFO_WOF; // the word is lost
        }
        this.updateIrq();
        return;
      case SIO_FIFO_RD:
      case SIO_CPUID:
        return;
    }
    if (offset >= SIO_DIV_FIRST && offset <= SIO_INTERP_LAST) {
      this.own[k].writeUint32(offset, value);
      return;
    }
    this.shared.writeUint32(offset, value);
  }
}

export class DualCoreRP2040 extends RP2040 {
  constructor() {
    super();
    this.current = 0;
    this.times = [0, 0]; // each core's clock (ns)
    this.onWfe = [false, false]; // the core's wait is a WFE (an event wakes it), not a WFI
    this.core1Held = false;
    this.stalled = [false, false]; // a harness's fault: the core stops, as if wedged
    this.xipMissCycles = 0;
    this.xipStall = 0; // cycles of misses charged to the instruction being run
    this.instructions = [0, 0];
    this.cores = [this.core, null];
    this.ppbs = [null, null];
    this.coreViews = [null, null];
    for (let k = 0; k < 2; k++) {
      this.coreViews[k] = this.coreView(k);
    }
    this.hookLogger(this.core, 0);
    this.cores[1] = this.newCore(1);
    for (let k = 0; k < 2; k++) {
      this.ppbs[k] = new this.ppb.constructor(this.coreViews[k], k ? 'PPB1' : 'PPB0');
    }
    this.ppb = this.ppbs[0];
    this.addClockListener((hz) => {
      for (const ppb of this.ppbs) {
        ppb.systickTimer.frequency = hz;
      }
    });
    this.sio = new DualSIO(this);
    this.io1 = { enable: new Uint8Array(30), force: new Uint8Array(30) };
    this.hookPsm();
    this.hookIoBank();
  }

  /** What a core's own peripherals (its NVIC and SysTick) see as "the chip": that core. */
  coreView(k) {
    const mcu = this;
    return {
      get core() {
        return mcu.cores[k];
      },
      get clock() {
        return mcu.clock;
      },
      get clkSys() {
        return mcu.clkSys;
      },
      get logger() {
        return mcu.logger;
      },
    };
  }

  newCore(k) {
    const core = new this.core.constructor(this);
    this.hookLogger(core, k);
    return core;
  }

  /** rp2040js runs SEV as a hint it only logs: the log is where the event is sent. */
  hookLogger(core, k) {
    const mcu = this;
    Object.defineProperty(core, 'logger', {
      value: {
        debug: (name, message) => mcu.logger.debug(name, message),
        info: (name, message) => (message === 'SEV' ? mcu.sev(k) : mcu.logger.info(name, message)),
        warn: (name, message) => mcu.logger.warn(name, message),
        error: (name, message) => mcu.logger.error(name, message),
      },
    });
  }

  hookPsm() {
    const psm = this.peripherals[PSM_BASE];
    const write = psm.writeUint32.bind(psm);
    psm.writeUint32 = (offset, value) => {
      write(offset, value);
      if (offset === PSM_FRCE_OFF) {
        this.holdCore1((psm.frceOff & PSM_PROC1) !== 0);
      }
    };
  }

  hookIoBank() {
    const io = this.peripherals[IO_BANK0_BASE];
    const read = io.readUint32.bind(io);
    const write = io.writeUint32.bind(io);
    const { enable, force } = this.io1;
    const nibbles = (offset, of) => {
      const first = (offset & 0xf) * 2;
      let value = 0;
      for (let i = 7; i >= 0; i--) {
        const pin = first + i;
        value = (value << 4) | (pin < 30 ? of(pin) : 0);
      }
      return value >>> 0;
    };
    io.readUint32 = (offset) => {
      if (offset < IO_PROC1_INTE0 || offset > IO_PROC1_LAST) {
        return read(offset);
      }
      const register = offset & ~0xf;
      if (register === IO_PROC1_INTE0) return nibbles(offset, (p) => enable[p]);
      if (register === IO_PROC1_INTF0) return nibbles(offset, (p) => force[p]);
      return nibbles(offset, (p) => (this.gpio[p].irqStatus & enable[p]) | force[p]);
    };
    // rp2040js tells the chip of a pin's interrupt only when its PROC0 line changes
    for (const pin of this.gpio) {
      for (const name of ['setInputValue', 'updateIRQValue']) {
        const change = pin[name].bind(pin);
        pin[name] = (value) => {
          change(value);
          this.updateIOInterrupt();
        };
      }
    }
    io.writeUint32 = (offset, value) => {
      const register = offset & ~0xf;
      if (register !== IO_PROC1_INTE0 && register !== IO_PROC1_INTF0) {
        if (register !== IO_PROC1_INTS0) write(offset, value);
        return;
      }
      const first = (offset & 0xf) * 2;
      const masks = register === IO_PROC1_INTE0 ? enable : force;
      for (let i = 0; i < 8 && first + i < 30; i++) {
        masks[first + i] = (value >>> (4 * i)) & 0xf;
      }
      this.updateIOInterrupt();
    };
  }

  /** Every peripheral's interrupt reaches both cores' NVICs, but for the per-core ones. */
  setInterrupt(irq, value) {
    if (!this.cores) {
      super.setInterrupt(irq, value); // rp2040js's constructor, before the second core
    } else if (irq === IRQ_SIO_PROC[0] || irq === IRQ_SIO_PROC[1]) {
      this.cores[irq - IRQ_SIO_PROC[0]].setInterrupt(irq, value);
    } else {
      this.cores[0].setInterrupt(irq, value);
      this.cores[1].setInterrupt(irq, value);
    }
  }

  updateIOInterrupt() {
    if (!this.cores) {
      super.updateIOInterrupt();
      return;
    }
    let proc0 = false;
    let proc1 = false;
    const { enable, force } = this.io1;
    for (const pin of this.gpio) {
      proc0 ||= pin.irqValue;
      proc1 ||= ((pin.irqStatus & enable[pin.index]) | force[pin.index]) !== 0;
    }
    this.cores[0].setInterrupt(IRQ_IO_BANK0, proc0);
    this.cores[1].setInterrupt(IRQ_IO_BANK0, proc1);
  }

  reset() {
    if (!this.cores) {
      super.reset(); // rp2040js's constructor, before the second core
      return;
    }
    this.select(0);
    super.reset();
    this.core1Held = true;
    this.holdCore1(false); // core 1 starts from the bootrom too
  }

  /** Core 1 held in reset (PSM FRCE_OFF.proc1), or started from the bootrom afresh. */
  holdCore1(held) {
    if (held === this.core1Held) {
      return;
    }
    this.core1Held = held;
    if (!held) {
      const core = this.newCore(1);
      this.cores[1] = core;
      if (this.current === 1) {
        this.core = core;
      }
      core.VTOR = 0;
      core.reset(); // its stack pointer and PC from the bootrom's vector table
      this.ppbs[1].reset();
      this.times[1] = this.clock.nanos;
      this.onWfe[1] = false;
      this.sio.updateIrq();
    }
  }

  select(k) {
    this.current = k;
    this.core = this.cores[k];
    this.ppb = this.ppbs[k];
  }

  /** SEV by core k: an event for both cores; a core asleep in WFE wakes on it. */
  sev(k) {
    for (let j = 0; j < 2; j++) {
      const core = this.cores[j];
      if (j !== k && core.waiting && this.onWfe[j] && !(j === 1 && this.core1Held)) {
        core.waiting = false;
      } else {
        core.eventRegistered = true;
      }
    }
  }

  /** Charge XIP cache misses from now on (`cycles` a miss; 0: none, as rp2040js). */
  useXipCache(cycles) {
    this.xipMissCycles = cycles;
    if (!cycles) {
      return;
    }
    const tags = new Int32Array(XIP_SETS * 2).fill(-1);
    const older = new Uint8Array(XIP_SETS); // which way of a set was used least recently
    this.xipAccesses = 0;
    this.xipMisses = 0;
    const access = (address) => {
      const region = address >>> 24;
      if (region < 0x10 || region > 0x13) {
        return;
      }
      this.xipAccesses++;
      if (region >= 0x12) {
        this.xipMisses++; // the uncached aliases always go to the flash
        this.xipStall += cycles;
        return;
      }
      const line = (address & 0xffffff) >>> 3;
      const set = line & (XIP_SETS - 1);
      const tag = line >>> 10;
      if (tags[2 * set] === tag) {
        older[set] = 1;
      } else if (tags[2 * set + 1] === tag) {
        older[set] = 0;
      } else {
        this.xipMisses++;
        this.xipStall += cycles;
        if (region === 0x10) {
          const way = older[set];
          tags[2 * set + way] = tag; // 0x11 (NOALLOC) looks up but does not fill
          older[set] = 1 - way;
        }
      }
    };
    // rp2040js reads the flash's cached alias directly at every width, the other aliases
    // through readUint32: each access is counted once.
    for (const name of ['readUint8', 'readUint16', 'readUint32']) {
      const read = this[name].bind(this);
      const every = name === 'readUint32';
      this[name] = (address) => {
        if (every || address >>> 24 === 0x10) {
          access(address >>> 0);
        }
        return read(address);
      };
    }
  }

  /** Run the cores until the clock reaches `until` (ns), `halt()` is called (from a
   * peripheral's callback: the watchdog), or both cores sleep with nothing scheduled
   * (`asleep`: only the host can wake them then).
   *
   * Each step runs one instruction of the core behind (core 0 on a tie), then moves the
   * clock to the one behind of those awake. A core asleep, stalled or held keeps the
   * clock's time: whatever wakes it (an alarm, an interrupt, an event from the other
   * core) does so at the end of the clock's step that did it. With both asleep, the clock
   * jumps to its next alarm. */
  run(until) {
    const clock = this.clock;
    const times = this.times;
    const cores = this.cores;
    const stalled = this.stalled;
    const counts = this.instructions;
    this.halted = false;
    this.asleep = false;
    while (clock.nanos < until && !this.halted) {
      const awake0 = !cores[0].waiting && !stalled[0];
      const awake1 = !cores[1].waiting && !stalled[1] && !this.core1Held;
      let k;
      if (awake0) {
        k = awake1 && times[1] < times[0] ? 1 : 0;
      } else if (awake1) {
        k = 1;
      } else {
        // An alarm may be due already: a core woken by an event runs a little behind the
        // clock (less than an instruction of the other), and what it schedules then is due.
        if (clock.nextAlarm === null) {
          this.asleep = true;
          return;
        }
        clock.tick(Math.max(0, clock.nanosToNextAlarm));
        times[0] = times[1] = clock.nanos;
        continue;
      }
      if (k !== this.current) {
        this.select(k);
      }
      const core = this.core;
      const cycles = core.executeInstruction() + this.xipStall;
      this.xipStall = 0;
      counts[k]++;
      if (core.waiting) {
        this.onWfe[k] = RP2040.prototype.readUint16.call(this, (core.PC - 2) >>> 0) === OP_WFE;
      }
      const mine = (times[k] += cycles * CYCLE_NS);
      const j = 1 - k;
      const other = k ? awake0 : awake1;
      const target = other && times[j] < mine ? times[j] : mine;
      if (target > clock.nanos) {
        clock.tick(target - clock.nanos);
      }
      if (!other && times[j] < clock.nanos) {
        times[j] = clock.nanos;
      }
    }
  }

  /** Stop `run` after the instruction being run (a watchdog's restart). */
  halt() {
    this.halted = true;
  }
}
