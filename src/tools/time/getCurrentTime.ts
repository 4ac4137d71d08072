import { z } from "zod";
import type { BuiltinToolEntry } from "../BuiltinToolEntry";
import type { SimpleTool } from "../SimpleTool";
import { describeInstant, timeZoneField, zoneOrUsers, type TimeInfo } from "./timeInfo";

const schema = z.object({
  timeZone: timeZoneField("IANA time zone to report the time in, e.g. \"Asia/Tokyo\". Leave out for the user's own time zone.").optional(),
});

export const getCurrentTimeTool: BuiltinToolEntry = {
  metadata: {
    id: "getCurrentTime",
    displayName: "Get current time",
    description: "Tells the model the current date and time in your time zone (or another one).",
    category: "time",
    isAlwaysEnabled: true,
    customPromptInstructions:
      "Use getCurrentTime whenever the answer depends on today's date or the current time; never guess the date.",
    wording: { pending: "Would like to check the time", running: "Checking the time", done: "Checked the time" },
  },
  create: ({ clock }): SimpleTool<z.infer<typeof schema>, TimeInfo> => ({
    name: "getCurrentTime",
    description: "Returns the current date, time, weekday and UTC offset in the user's time zone or a given one.",
    schema,
    isReadOnly: true,
    func: ({ timeZone }) => Promise.resolve(describeInstant(clock.now(), zoneOrUsers(timeZone, clock))),
  }),
};
