/** The connections service's MongoDB stores: settings and connections (`@engram/connections/mongo`, loaded only when chosen). */
export * from "./settings.mongo";
export * from "./connections.mongo";
