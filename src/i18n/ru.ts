import type { Translation } from "./messages";

export const ru: Translation = {};
