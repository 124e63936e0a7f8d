// dualcore.mjs on its own, with a few Thumb instructions in SRAM: what MicroPython's run
// (test_pico_cores.py) does not pin down. Run by test_pico_cores.py: node --test <this file>
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DualCoreRP2040 } from './dualcore.mjs';

const SRAM = 0x20000000;
const SIO = 0xd0000000;
const SPINLOCK0 = 0x100;
const SPINLOCK_ST = 0x05c;
const FIFO_ST = 0x050;
const FIFO_WR = 0x054;
const FIFO_RD = 0x058;
const DIV_UDIVIDEND = 0x060;
const DIV_UDIVISOR = 0x064;
const DIV_QUOTIENT = 0x070;
const IO_BANK0 = 0x40014000;
const PSM_FRCE_OFF = 0x40010004;
const B_SELF = 0xe7fe; // b .
const WFE = 0xbf20;
const SEV = 0xbf40;
const NOP = 0xbf00;
const movs = (rd, imm) => 0x2000 | (rd << 8) | imm;
const ldrLiteral = (rt, words) => 0x4800 | (rt << 8) | words; // ldr rt, [pc, #4 * words]
const ldr = (rt, rn) => 0x6800 | (rn << 3) | rt; // ldr rt, [rn]

/** A chip whose cores run `programs[k]` (halfwords, then literal words) from SRAM. */
function chip(programs) {
  const mcu = new DualCoreRP2040();
  programs.forEach(([code, words = []], k) => {
    const at = SRAM + 0x100 * k;
    code.forEach((half, i) => mcu.writeUint16(at + 2 * i, half));
    words.forEach((word, i) => mcu.writeUint32(at + 4 * Math.ceil(code.length / 2) + 4 * i, word));
    mcu.cores[k].PC = at;
    mcu.cores[k].SP = SRAM + 0x1000 * (k + 1);
  });
  return mcu;
}

test('both cores claiming a spinlock on the same cycle: core 0 gets it', () => {
  // ldr r0, =SPINLOCK0 ; ldr r1, [r0] ; b . ; (pad) ; the literal
  const program = [[ldrLiteral(0, 1), ldr(1, 0), B_SELF, NOP], [SIO + SPINLOCK0]];
  const mcu = chip([program, program]);
  mcu.run(1000);
  assert.equal(mcu.cores[0].registers[1], 1);
  assert.equal(mcu.cores[1].registers[1], 0);
  assert.equal(mcu.sio.readUint32(SPINLOCK_ST), 1);
  mcu.sio.writeUint32(SPINLOCK0, 0); // released: the next read claims it
  assert.equal(mcu.sio.readUint32(SPINLOCK0), 1);
});

test('the cores run in lockstep: their clocks stay within an instruction', () => {
  const loop = [[NOP, B_SELF]]; // a 2-cycle branch on core 0 ...
  const slow = [[ldrLiteral(0, 1), ldr(1, 0), 0xe7fc, NOP], [SRAM]]; // ... 2 + 2 + 2 on core 1
  const mcu = chip([loop, slow]);
  mcu.run(1e6);
  const [zero, one] = mcu.times;
  assert.ok(Math.abs(zero - one) <= 3 * 8, `${zero} ${one}`);
  assert.ok(mcu.clock.nanos >= 1e6 && Math.min(zero, one) <= mcu.clock.nanos);
  assert.ok(mcu.instructions[0] > mcu.instructions[1]);
});

test('a core asleep in WFE wakes on the other core\'s SEV, at its time', () => {
  const sleeper = [[WFE, movs(2, 1), B_SELF]];
  const waker = [[...Array(50).fill(NOP), SEV, B_SELF]];
  const mcu = chip([waker, sleeper]);
  mcu.run(300);
  assert.equal(mcu.cores[1].registers[2], 0); // still asleep: 50 NOPs take 400 ns
  mcu.run(2000);
  assert.equal(mcu.cores[1].registers[2], 1);
  assert.ok(mcu.times[1] >= 50 * 8, `woke at ${mcu.times[1]} ns`);
});

test('a core asleep in WFI does not wake on SEV', () => {
  const mcu = chip([[[SEV, B_SELF]], [[0xbf30, movs(2, 1), B_SELF]]]);
  mcu.run(2000);
  assert.equal(mcu.cores[1].registers[2], 0);
  assert.ok(mcu.cores[1].eventRegistered); // kept for its next WFE
});

test('the FIFOs: 8 words each way, VLD, RDY, WOF, ROE and each core\'s SIO IRQ', () => {
  const mcu = chip([[[B_SELF]], [[B_SELF]]]);
  const as = (k, fn) => {
    mcu.select(k);
    return fn(mcu.sio);
  };
  assert.equal(as(0, (s) => s.readUint32(FIFO_ST)), 2); // RDY
  for (let i = 1; i <= 9; i++) as(0, (s) => s.writeUint32(FIFO_WR, i));
  assert.equal(as(0, (s) => s.readUint32(FIFO_ST)), 4); // full, and the ninth lost: WOF
  assert.ok(mcu.cores[0].pendingInterrupts & (1 << 15)); // WOF raises core 0's own IRQ
  as(0, (s) => s.writeUint32(FIFO_ST, 0xff));
  assert.ok(!(mcu.cores[0].pendingInterrupts & (1 << 15)));
  assert.ok(mcu.cores[1].pendingInterrupts & (1 << 16)); // core 1's RX holds words
  assert.equal(as(1, (s) => s.readUint32(FIFO_ST)), 3); // VLD | RDY
  const words = [];
  for (let i = 0; i < 8; i++) words.push(as(1, (s) => s.readUint32(FIFO_RD)));
  assert.deepEqual(words, [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.ok(!(mcu.cores[1].pendingInterrupts & (1 << 16)));
  as(1, (s) => s.readUint32(FIFO_RD)); // empty: ROE
  assert.equal(as(1, (s) => s.readUint32(FIFO_ST)), 2 | 8);
  assert.ok(mcu.cores[1].pendingInterrupts & (1 << 16));
});

test('each core has its own CPUID and divider', () => {
  const mcu = chip([[[B_SELF]], [[B_SELF]]]);
  mcu.select(0);
  mcu.sio.writeUint32(DIV_UDIVIDEND, 999);
  mcu.sio.writeUint32(DIV_UDIVISOR, 3);
  mcu.select(1);
  mcu.sio.writeUint32(DIV_UDIVIDEND, 1000);
  mcu.sio.writeUint32(DIV_UDIVISOR, 7);
  assert.equal(mcu.sio.readUint32(0), 1);
  assert.equal(mcu.sio.readUint32(DIV_QUOTIENT) >>> 0, 142); // a register holds an integer
  mcu.select(0);
  assert.equal(mcu.sio.readUint32(0), 0);
  assert.equal(mcu.sio.readUint32(DIV_QUOTIENT) >>> 0, 333);
});

test('a GPIO interrupt enabled on core 1 only reaches core 1', () => {
  const mcu = chip([[[B_SELF]], [[B_SELF]]]);
  mcu.writeUint32(IO_BANK0 + 0x130, 0x8 << 20); // PROC1_INTE0: GPIO 5, edge high
  mcu.gpio[5].padValue |= 0x40; // its input enabled
  mcu.gpio[5].setInputValue(true);
  assert.ok(mcu.cores[1].pendingInterrupts & (1 << 13));
  assert.ok(!(mcu.cores[0].pendingInterrupts & (1 << 13)));
  assert.equal(mcu.readUint32(IO_BANK0 + 0x150) >>> 20, 0x8); // PROC1_INTS0
  mcu.writeUint32(IO_BANK0 + 0xf0, 0x8 << 20); // INTR0: acknowledged
  assert.ok(!(mcu.cores[1].pendingInterrupts & (1 << 13)));
});

test('PSM FRCE_OFF holds core 1, and releasing it starts it from the bootrom', () => {
  const mcu = chip([[[B_SELF]], [[B_SELF]]]);
  mcu.writeUint32(PSM_FRCE_OFF, 1 << 16);
  assert.ok(mcu.core1Held);
  mcu.run(1000);
  const count = mcu.instructions[1];
  mcu.run(2000);
  assert.equal(mcu.instructions[1], count); // held: it does not run
  mcu.writeUint32(PSM_FRCE_OFF, 0);
  assert.ok(!mcu.core1Held);
  assert.equal(mcu.cores[1].PC, mcu.readUint32(4) & ~1); // the bootrom's reset vector
});
