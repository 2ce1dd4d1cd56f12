import { performance } from 'node:perf_hooks';

/** What a phase has done so far: `done` of `total` units (rows, indexes, table pages), and what it is at. */
export interface PhaseState {
  done: number;
  total?: number;
  detail?: string;
}

export interface PhaseOptions {
  /** How many units the phase has to do, when known (the rate and time left are computed from it). */
  total?: number;
  /** What a unit is ('sales', 'batches', 'migrations'); the rate is given per unit. */
  unit?: string;
  /**
   * Asked before each heartbeat line of a phase that does its work in the database (index builds, VACUUM): its
   * state from the server's progress views.
   */
  poll?: () => Promise<PhaseState | undefined>;
}

const number = (n: number) => Math.round(n).toLocaleString('en');

export const clock = (seconds: number) => {
  const s = Math.round(seconds);
  return s < 60
    ? `${s} s`
    : s < 3600
      ? `${Math.floor(s / 60)} min ${s % 60} s`
      : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
};

/**
 * The progress of a run made of phases (migrations, catalogue, batches, sales, index builds, …): a line at
 * each phase's start and end, and while a phase runs at least one line every `everyMs` whatever it is doing:
 * its units done of its total, its rate per unit, its time so far and left at that rate, and the run's time so
 * far. Phases that work in Node call `tick`; a timer (which also covers a phase waiting on the database) prints
 * a heartbeat when no tick did, asking the phase's `poll` first. So a run says from its first second what it
 * is doing and how long it will take.
 */
export class RunProgress {
  private readonly started = performance.now();
  private index = 0;
  private name = '';
  private unit = '';
  private phaseStarted = this.started;
  private state: PhaseState = { done: 0 };
  private poll: PhaseOptions['poll'];
  private lastLine = this.started;
  private polling = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly log: (line: string) => void,
    /** The phases the run will go through, in order (for the "[3/8]" of each line). */
    private readonly phases: readonly string[],
    private readonly everyMs = 2000,
  ) {
    this.timer = setInterval(() => void this.heartbeat(), Math.max(10, everyMs / 4));
    this.timer.unref();
  }

  /** Starts the phase `name` (one of `phases`), ending the one before if it was not ended. */
  begin(name: string, o: PhaseOptions = {}): void {
    const at = this.phases.indexOf(name);
    this.index = at >= 0 ? at + 1 : this.index + 1;
    this.name = name;
    this.unit = o.unit ?? '';
    this.poll = o.poll;
    this.state = { done: 0, total: o.total };
    this.phaseStarted = performance.now();
    this.lastLine = this.phaseStarted;
    const of = o.total !== undefined && o.unit ? ` (${number(o.total)} ${o.unit})` : '';
    this.log(`${this.prefix()}started${of}, ${clock(this.runSeconds())} into the run`);
  }

  /** The phase's units done (and what it is at); prints a line when none was printed for `everyMs`. */
  tick(done: number, detail?: string): void {
    this.state = { ...this.state, done, ...(detail !== undefined && { detail }) };
    if (performance.now() - this.lastLine >= this.everyMs) this.line();
  }

  /** Sets the phase's total once it is known. */
  total(total: number): void {
    this.state = { ...this.state, total };
  }

  /** Ends the phase with its count and rate (or `what` it did). */
  end(what?: string): void {
    if (!this.name) return;
    const seconds = this.phaseSeconds();
    const rate =
      this.unit && this.state.done > 0
        ? `, ${number(this.state.done / Math.max(seconds, 0.001))} ${this.unit}/s`
        : '';
    const done = what ?? (this.unit ? `${number(this.state.done)} ${this.unit}` : 'done');
    this.log(`${this.prefix()}${done} in ${clock(seconds)}${rate}; run ${clock(this.runSeconds())} so far`);
    this.poll = undefined;
    this.name = '';
  }

  close(): void {
    clearInterval(this.timer);
  }

  runSeconds(): number {
    return (performance.now() - this.started) / 1000;
  }

  private phaseSeconds(): number {
    return (performance.now() - this.phaseStarted) / 1000;
  }

  private prefix(): string {
    return `[${this.index}/${this.phases.length}] ${this.name}: `;
  }

  private async heartbeat(): Promise<void> {
    if (!this.name || this.polling || performance.now() - this.lastLine < this.everyMs) return;
    const name = this.name;
    if (this.poll) {
      this.polling = true;
      try {
        const state = await this.poll().catch(() => undefined);
        if (state && this.name === name) this.state = { ...this.state, ...state };
      } finally {
        this.polling = false;
      }
    }
    if (this.name === name) this.line();
  }

  private line(): void {
    this.lastLine = performance.now();
    const seconds = this.phaseSeconds();
    const { done, total, detail } = this.state;
    const parts: string[] = [];
    if (total !== undefined && total > 0) {
      parts.push(`${number(done)}/${number(total)} (${((100 * done) / total).toFixed(1)} %)`);
    } else if (this.unit) parts.push(`${number(done)} ${this.unit}`);
    if (this.unit && done > 0) parts.push(`${number(done / Math.max(seconds, 0.001))} ${this.unit}/s`);
    if (detail) parts.push(detail);
    parts.push(`${clock(seconds)} so far`);
    if (total !== undefined && total > 0 && done > 0)
      parts.push(`${clock(((total - done) * seconds) / done)} left`);
    this.log(`${this.prefix()}${parts.join(', ')}; run ${clock(this.runSeconds())}`);
  }
}
