/** A channel's name, as spec/request.schema.json allows a custom one: a lower case letter, then up to 31 of a-z, 0-9, _ and -. */
export const CHANNEL_NAME = /^[a-z][a-z0-9_-]{0,31}$/;
