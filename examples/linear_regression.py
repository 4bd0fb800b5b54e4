"""Trains y = W*x + b on four points with gradient descent (the classic TF 1.x linear model).

Run: python examples/linear_regression.py
Expected: W ~ 2.0, b ~ -0.5, cost < 1e-6, global_step = 1000.
"""
import tfc as tf


def main(steps=1000):
  W = tf.Variable([0.1], tf.float32)
  b = tf.Variable([0.0], tf.float32)
  global_step = tf.Variable(0, name="global_step", trainable=False)

  x = tf.placeholder(tf.float32)
  y = tf.placeholder(tf.float32)

  # A linear model y = Wx + b.
  model = W * x + b
  loss = tf.reduce_sum(tf.square(model - y))

  optimizer = tf.train.GradientDescentOptimizer(0.01)
  train = optimizer.minimize(loss, global_step=global_step)

  x_train = [1.0, 2.0, 3.0, 4.0]
  y_train = [1.5, 3.5, 5.5, 7.5]

  init = tf.global_variables_initializer()
  with tf.Session() as sess:
    sess.run(init)
    for _ in range(steps):
      sess.run(train, {x: x_train, y: y_train})
    l_W, l_b, l_cost, l_step = sess.run([W, b, loss, global_step], {x: x_train, y: y_train})
  print(f"W: {l_W} b: {l_b} cost: {l_cost} step: {l_step}")
  return l_W, l_b, l_cost, l_step


if __name__ == "__main__":
  main()
