import type { Translation } from "./messages";

export const zh: Translation = {};
