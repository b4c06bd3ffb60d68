/** The lengths a note and a tag's name may have (shared with the browser's forms). */
export const NOTE_MAX = 5000;
export const TAG_MAX = 60;
