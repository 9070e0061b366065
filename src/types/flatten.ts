/** Flattens an intersection into one object type where a user sees it (hover, row types). */
export type Flatten<T> = { [K in keyof T]: T[K] } & {};
