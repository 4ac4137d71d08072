import type { Translation } from "./messages";

export const ko: Translation = {};
