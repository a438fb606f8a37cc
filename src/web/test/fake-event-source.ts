/** Stands in for the browser's EventSource: the test plays the server's part. */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];

  readyState = FakeEventSource.CONNECTING;
  private readonly listeners = new Map<string, ((event: MessageEvent) => void)[]>();

  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    FakeEventSource.opened.push(this);
  }

  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  send(type: string, data: unknown = {}) {
    this.sendText(type, JSON.stringify(data));
  }

  sendText(type: string, text: string) {
    if (type === 'ready') this.readyState = FakeEventSource.OPEN;
    const event = new MessageEvent(type, { data: text });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }

  /** The connection failed: `closed` when the server refused it (the browser gives up), else the browser retries. */
  fail({ closed }: { closed: boolean }) {
    this.readyState = closed ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    for (const listener of this.listeners.get('error') ?? []) listener(new MessageEvent('error'));
  }
}
