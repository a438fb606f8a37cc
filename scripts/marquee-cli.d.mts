/** Runs `marquee …` with these arguments; answers its exit code. */
export function run(
  args: string[],
  io?: {
    env?: Record<string, string | undefined>;
    write?: (text: string) => void;
    error?: (text: string) => void;
  },
): Promise<number>;
