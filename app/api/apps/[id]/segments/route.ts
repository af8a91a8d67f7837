import { routes } from "@/lib/api/endpoint";
import { getSegments, postSegment } from "@/lib/segments/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(getSegments, postSegment);
