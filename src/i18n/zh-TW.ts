import type { Translation } from "./messages";

export const zhTW: Translation = {};
