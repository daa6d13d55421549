import { Router } from "express";
import { OrderRepository } from "../repositories/orders";

const orders = new OrderRepository();
export const router = Router();

router.get("/customers/:id/orders", async (req, res) => res.json(await orders.ofCustomer(req.params.id, req.query.from ? Number(req.query.from) : undefined)));
router.post("/customers/:id/orders", async (req, res) => {
  await orders.place({ ...req.body, customerId: req.params.id, placedAt: new Date() });
  res.status(201).end();
});
router.put("/customers/:id/orders/:n/paid", async (req, res) => res.json({ ok: await orders.markPaid(req.params.id, Number(req.params.n)) }));
