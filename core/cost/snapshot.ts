/**
 * The price sheet shipped with the extension: Azure's public pay-as-you-go
 * prices for East US (`eastus`), in US dollars, as the Retail Prices API
 * (https://prices.azure.com/api/retail/prices) lists them, transcribed on the
 * date below. Prices change: `tdl cost --refresh-prices` reads the current
 * ones for any region, and every estimate says the sheet's date and region.
 */
import type { Meter, PriceSheet } from "./prices";

const table = (skuName: string, meterName: string, unitOfMeasure: string, retailPrice: number): Meter => ({
  serviceName: "Storage",
  productName: "Tables",
  skuName,
  meterName,
  unitOfMeasure,
  retailPrice,
});

const cosmos = (skuName: string, meterName: string, unitOfMeasure: string, retailPrice: number): Meter => ({
  serviceName: "Azure Cosmos DB",
  productName: "Azure Cosmos DB",
  skuName,
  meterName,
  unitOfMeasure,
  retailPrice,
});

export const SNAPSHOT: PriceSheet = {
  region: "eastus",
  currency: "USD",
  date: "2026-11-24",
  source: "snapshot",
  tableTransactions: table("Standard LRS", "Storage Transactions", "10K", 0.00036),
  tableStorage: {
    LRS: table("Standard LRS", "LRS Data Stored", "1 GB/Month", 0.045),
    ZRS: table("Standard ZRS", "ZRS Data Stored", "1 GB/Month", 0.0563),
    GRS: table("Standard GRS", "GRS Data Stored", "1 GB/Month", 0.06),
    "RA-GRS": table("Standard RA-GRS", "RA-GRS Data Stored", "1 GB/Month", 0.075),
  },
  cosmosProvisioned: cosmos("RUs", "100 RU/s", "1/Hour", 0.008),
  cosmosAutoscale: cosmos("RUm", "100 RU/s", "1/Hour", 0.012),
  cosmosServerless: cosmos("Serverless", "1M RUs", "1M", 0.25),
  cosmosStorage: cosmos("Standard", "Data Stored", "1 GB/Month", 0.25),
};
