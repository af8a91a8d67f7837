import { notFoundRoutes } from "@/lib/api/not-found";

export const { GET, POST, PUT, PATCH, DELETE } = notFoundRoutes();
