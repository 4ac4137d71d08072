import { z } from "zod";
import { ToolFailureError } from "../../errorMessage";
import type { BuiltinToolEntry } from "../BuiltinToolEntry";
import type { SimpleTool } from "../SimpleTool";
import { describeInstant, timeZoneField, zoneOrUsers, type TimeInfo } from "./timeInfo";

/** Below this an epoch is taken as seconds: as milliseconds it would fall before 1973. */
const SECONDS_THRESHOLD = 100_000_000_000;

const schema = z.object({
  epoch: z
    .number()
    .describe("Epoch time in milliseconds (values below 100000000000 are read as seconds)."),
  timeZone: timeZoneField("IANA time zone to show the time in. Leave out for the user's own time zone.").optional(),
});

export interface EpochInfo extends TimeInfo {
  /** True when the epoch given was read as seconds. */
  readAsSeconds: boolean;
}

export const getTimeInfoByEpochTool: BuiltinToolEntry = {
  metadata: {
    id: "getTimeInfoByEpoch",
    displayName: "Read a timestamp",
    description: "Turns an epoch timestamp into a readable date and time.",
    category: "time",
    isAlwaysEnabled: true,
    customPromptInstructions:
      "Use getTimeInfoByEpoch to turn epoch timestamps (from notes, search results or tools) into dates before talking about them.",
    wording: { pending: "Would like to read a timestamp", running: "Reading a timestamp", done: "Read a timestamp" },
  },
  create: ({ clock }): SimpleTool<z.infer<typeof schema>, EpochInfo> => ({
    name: "getTimeInfoByEpoch",
    description: "Converts an epoch timestamp (milliseconds, or seconds) into date, time, weekday and UTC offset.",
    schema,
    isReadOnly: true,
    func: ({ epoch, timeZone }) => {
      const readAsSeconds = Math.abs(epoch) < SECONDS_THRESHOLD;
      const epochMs = Math.round(readAsSeconds ? epoch * 1000 : epoch);
      if (Number.isNaN(new Date(epochMs).getTime())) {
        return Promise.reject(new ToolFailureError(`The epoch ${epoch} is outside the range of dates that can be shown.`, { kind: "epoch-out-of-range", values: { epoch } }));
      }
      return Promise.resolve({ ...describeInstant(epochMs, zoneOrUsers(timeZone, clock)), readAsSeconds });
    },
  }),
};
