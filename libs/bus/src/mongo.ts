/**
 * MongoDB side of the bus library (`@engram/bus/mongo`): the transactional
 * outbox of the production adapters. A separate entry, so that the embedded
 * stack never loads the driver.
 */
export * from "./mongo-outbox";
