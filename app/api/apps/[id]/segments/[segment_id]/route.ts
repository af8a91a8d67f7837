import { routes } from "@/lib/api/endpoint";
import { deleteOneSegment, getOneSegment, postOneSegment, putOneSegment } from "@/lib/segments/endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = routes(
  getOneSegment,
  postOneSegment,
  putOneSegment,
  deleteOneSegment,
);
