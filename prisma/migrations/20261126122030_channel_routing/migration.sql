-- CreateTable
CREATE TABLE "channel_routing_operators" (
    "channel_id" BIGINT NOT NULL,
    "app_id" BIGINT NOT NULL,
    "admin_id" BIGINT NOT NULL,

    CONSTRAINT "channel_routing_operators_pkey" PRIMARY KEY ("channel_id","admin_id")
);

-- CreateIndex
CREATE INDEX "channel_routing_operators_app_id_admin_id_idx" ON "channel_routing_operators"("app_id", "admin_id");

-- AddForeignKey
ALTER TABLE "channel_routing_operators" ADD CONSTRAINT "channel_routing_operators_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channel_routing_operators" ADD CONSTRAINT "channel_routing_operators_app_id_admin_id_fkey" FOREIGN KEY ("app_id", "admin_id") REFERENCES "app_admins"("app_id", "admin_id") ON DELETE CASCADE ON UPDATE CASCADE;
