/** A small, strict argument parser for the CLI: `--flag value`, `--flag=value`, boolean flags, positionals. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export interface FlagSpec {
  /** Flags that take no value. */
  booleans?: readonly string[];
  /** Flags that take a value. */
  values?: readonly string[];
  /** Flags that take a value and may be given more than once (`--attach A --attach B`). */
  lists?: readonly string[];
}

export interface ParsedArgs {
  flags: Map<string, string | true>;
  /** The values of each repeatable flag, in the order given. */
  lists: Map<string, string[]>;
  positionals: string[];
}

export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const booleans = new Set(spec.booleans ?? []);
  const values = new Set(spec.values ?? []);
  const repeatable = new Set(spec.lists ?? []);
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? "";
    if (argument === "--") {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    if (!argument.startsWith("--")) {
      positionals.push(argument);
      continue;
    }
    const equals = argument.indexOf("=");
    const name = argument.slice(2, equals === -1 ? undefined : equals);
    if (booleans.has(name)) {
      if (equals !== -1) throw new UsageError(`--${name} takes no value`);
      flags.set(name, true);
    } else if (values.has(name) || repeatable.has(name)) {
      const value = equals === -1 ? argv[++index] : argument.slice(equals + 1);
      if (value === undefined || (equals === -1 && value.startsWith("--"))) throw new UsageError(`--${name} needs a value`);
      if (repeatable.has(name)) lists.set(name, [...(lists.get(name) ?? []), value]);
      else flags.set(name, value);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return { flags, lists, positionals };
}

/** A string flag's value, or throws when it is required and absent. */
export function stringFlag(args: ParsedArgs, name: string, required: true): string;
export function stringFlag(args: ParsedArgs, name: string, required?: false): string | undefined;
export function stringFlag(args: ParsedArgs, name: string, required = false): string | undefined {
  const value = args.flags.get(name);
  if (value === undefined) {
    if (required) throw new UsageError(`--${name} is required`);
    return undefined;
  }
  return value === true ? undefined : value;
}

/** A positive whole-number flag, or `fallback`. */
export function integerFlag(args: ParsedArgs, name: string, fallback: number): number {
  const value = stringFlag(args, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} takes a whole number above 0`);
  return Number(value);
}
